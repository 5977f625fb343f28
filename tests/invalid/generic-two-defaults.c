int f(void) { return _Generic(1, default: 1, default: 2); }
