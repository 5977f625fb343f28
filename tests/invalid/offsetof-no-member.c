struct s { int a; };
int f(void) { return __builtin_offsetof(struct s, b); }
