struct s;
extern struct s v;
int f(void) { return sizeof v; }
