struct s { int a; };
void f(int x) { (struct s)x; }
