int *f(void) { return &42; }
