struct s;
int f(struct s *p) { return p->a; }
