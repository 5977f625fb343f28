struct s { int a; } int x;
