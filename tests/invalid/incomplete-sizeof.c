struct s;
int f(void) { return sizeof(struct s); }
