int f(a) { return a; }
