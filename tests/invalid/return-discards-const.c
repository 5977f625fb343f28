char *f(const char *s) { return s; }
