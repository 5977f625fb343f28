int *f(double *d) { return d; }
