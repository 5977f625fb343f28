struct s;
int f(void) { return _Alignof(struct s); }
