void f(void) { int *p = 7; }
