struct s { int b : 3; } v;
int f(void) { return sizeof v.b; }
