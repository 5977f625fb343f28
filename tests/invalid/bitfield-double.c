struct s { double d : 3; };
