struct s;
int f(void) { return _Generic(1, struct s: 1, default: 2); }
