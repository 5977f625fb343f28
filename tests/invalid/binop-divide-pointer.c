int f(int *p) { return 10 / p; }
