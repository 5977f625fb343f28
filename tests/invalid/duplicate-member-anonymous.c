struct s { int a; struct { int a; }; };
