f(void) { return 0; }
