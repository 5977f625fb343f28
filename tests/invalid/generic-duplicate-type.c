int f(void) { return _Generic(1, int: 1, int: 2); }
