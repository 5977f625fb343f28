// options: -Wall -Wno-unused-variable
void f(void) { int unused; int x = g(); }
