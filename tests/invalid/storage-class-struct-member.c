struct s { static int a; };
