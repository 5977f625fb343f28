void f(void) { void v; }
