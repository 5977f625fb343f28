struct s { int a; } v = { 1, 2 };
