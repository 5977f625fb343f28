// options: -Wall
void f(void) { int unused; }
