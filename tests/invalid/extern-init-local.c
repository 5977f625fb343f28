void f(void) { extern int e = 1; }
