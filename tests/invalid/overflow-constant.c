int f(void) { return 0x7fffffff + 1; }
