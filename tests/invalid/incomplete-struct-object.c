struct s;
struct s v;
void f(void) { }
