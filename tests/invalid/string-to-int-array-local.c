void f(void) { int a[4] = "abc"; }
