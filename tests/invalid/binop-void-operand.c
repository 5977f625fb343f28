void g(void);
int f(void) { return g() + 1; }
