struct s { int a; } v;
struct t { int a; } w;
void f(void) { v = w; }
