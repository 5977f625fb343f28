struct s { int a; };
void f(const struct s *p) { p->a = 1; }
