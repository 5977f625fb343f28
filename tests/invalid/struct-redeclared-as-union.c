struct s { int a; };
union s *p;
