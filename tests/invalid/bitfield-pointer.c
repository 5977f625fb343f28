struct s { int *p : 3; };
