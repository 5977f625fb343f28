struct s { int a[]; };
