struct s { int b : 40; };
