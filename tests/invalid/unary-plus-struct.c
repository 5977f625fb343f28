struct s { int a; } v;
void f(void) { +v; }
