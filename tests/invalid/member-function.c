struct s { int f(void); };
