void f(void) { g(); }
int g(int a) { return a; }
