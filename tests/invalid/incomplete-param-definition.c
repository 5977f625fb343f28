struct s;
void f(struct s v) { }
