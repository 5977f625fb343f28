void f(void) { int a[]; }
