void f(int *p) { double *d; d = p; }
