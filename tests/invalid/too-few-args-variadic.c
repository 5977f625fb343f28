int pf(const char *fmt, ...);
int f(void) { return pf(); }
