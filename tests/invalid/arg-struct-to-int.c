struct s { int a; } v;
void take(int);
void f(void) { take(v); }
