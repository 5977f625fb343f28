int f(void *p) { return *p; }
