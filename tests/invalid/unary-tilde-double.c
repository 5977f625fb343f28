double f(double d) { return ~d; }
