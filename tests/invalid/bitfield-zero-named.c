struct s { int b : 0; };
