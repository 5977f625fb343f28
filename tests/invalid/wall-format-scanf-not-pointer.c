// options: -Wall
int scanf(const char *, ...);
void f(int x) { scanf("%d", x); }
