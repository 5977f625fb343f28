// options: -Wall
void f(void) { int s; s = 1; }
