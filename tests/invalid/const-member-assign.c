struct s { const int a; } v;
void f(void) { v.a = 1; }
