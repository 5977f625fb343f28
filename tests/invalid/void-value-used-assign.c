void g(void);
void f(void) { int x = g(); }
