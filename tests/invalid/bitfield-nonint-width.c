struct s { int b : 2.0; };
