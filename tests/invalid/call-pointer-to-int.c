void f(int *p) { p(); }
