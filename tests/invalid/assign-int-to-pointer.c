void f(int x) { int *p; p = x; }
