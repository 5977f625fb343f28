const struct s { int a; } v;
void f(void) { v.a = 2; }
