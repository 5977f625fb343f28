// options: -Wall
int printf(const char *, ...);
void f(long l) { printf("%d\n", l); }
