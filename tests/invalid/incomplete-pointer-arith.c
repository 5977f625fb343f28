struct s;
struct s *f(struct s *p) { return p + 1; }
