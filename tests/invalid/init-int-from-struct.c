struct s { int a; } g;
void f(void) { int x = g; }
