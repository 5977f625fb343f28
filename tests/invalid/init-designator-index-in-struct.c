struct s { int a; } v = { [0] = 1 };
