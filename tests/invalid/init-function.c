void g(void);
void (h)(void) = g;
