void f(int *p) { int x = p; }
