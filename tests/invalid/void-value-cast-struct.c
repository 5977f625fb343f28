struct s { int a; };
void f(void) { (struct s)1; }
