struct s { int b : -1; };
