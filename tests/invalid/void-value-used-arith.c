void g(void);
int f(void) { return 1 + g(); }
