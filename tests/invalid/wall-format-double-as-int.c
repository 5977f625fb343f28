// options: -Wall
int printf(const char *, ...);
void f(double d) { printf("%i\n", d); }
