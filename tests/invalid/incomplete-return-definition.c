struct s;
struct s f(void) { }
