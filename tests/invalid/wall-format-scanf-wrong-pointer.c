// options: -Wall
int scanf(const char *, ...);
void f(long *x) { scanf("%d", x); }
