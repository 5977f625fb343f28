// options: -Wall
int printf(const char *, ...);
void f(void) { printf("%y\n", 1); }
