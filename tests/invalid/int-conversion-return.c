int *f(void) { return 5; }
