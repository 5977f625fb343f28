int f(void) { return g(1); }
