int f(int *p, double *q) { return p == q; }
