void f(void) { int a[3], b[3]; a = b; }
