int *f(int x) { return &(int)x; }
