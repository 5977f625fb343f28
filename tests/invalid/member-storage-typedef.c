struct s { typedef int T; };
