long f(int *a, double *b) { return a - b; }
