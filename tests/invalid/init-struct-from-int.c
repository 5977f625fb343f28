struct s { int a; };
void f(void) { struct s v = 3; }
