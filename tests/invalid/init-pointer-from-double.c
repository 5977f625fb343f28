void f(double d) { int *p = d; }
