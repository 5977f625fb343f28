int n;
struct s { int b : n; };
