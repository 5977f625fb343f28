struct t;
struct s { struct t m; };
