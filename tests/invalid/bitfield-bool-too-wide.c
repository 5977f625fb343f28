struct s { _Bool b : 2; };
