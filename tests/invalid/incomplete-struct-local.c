struct s;
void f(void) { struct s v; }
