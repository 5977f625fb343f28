void f(int *p) { p *= 2; }
