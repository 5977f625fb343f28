struct s { int a; } v;
int f(void) { return 3 ^ v; }
