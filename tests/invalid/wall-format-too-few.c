// options: -Wall
int printf(const char *, ...);
void f(void) { printf("%d %d\n", 1); }
