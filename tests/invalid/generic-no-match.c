int f(void) { return _Generic(1.0f, int: 1, double: 2); }
