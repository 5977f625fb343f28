struct s { int a; } v = { .b = 1 };
