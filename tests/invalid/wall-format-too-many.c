// options: -Wall
int printf(const char *, ...);
void f(void) { printf("%d\n", 1, 2); }
