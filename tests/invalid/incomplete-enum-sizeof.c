enum e;
int f(void) { return sizeof(enum e); }
