struct s { int a; };
void take(struct s);
void f(void) { take(1); }
