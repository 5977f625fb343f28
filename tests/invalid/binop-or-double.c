int f(double d) { return d | 1; }
