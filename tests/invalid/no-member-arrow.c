struct s { int a; };
int f(struct s *p) { return p->zz; }
