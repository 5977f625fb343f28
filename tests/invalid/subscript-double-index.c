int f(int *p, double d) { return p[d]; }
