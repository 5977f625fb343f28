int none(void);
int f(void) { return none(1); }
