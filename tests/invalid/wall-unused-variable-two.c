// options: -Wall
int f(void) { int a = 1, b; return a; }
