struct s;
void g(struct s);
void f(struct s *p) { g(*p); }
