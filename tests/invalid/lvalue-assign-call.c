int g(void);
void f(void) { g() = 1; }
