void *f(int c, int *a, double *b) { return c ? a : b; }
