void f(int *p) { int x; x = p; }
