void f(const int *p) { *p = 1; }
