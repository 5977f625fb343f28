struct s { int a; } v, w;
int f(void) { return v == w; }
