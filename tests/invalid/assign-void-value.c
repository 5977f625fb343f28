void nothing(void);
void f(void) { int x; x = nothing(); }
