// options: -Wall
int printf(const char *, ...);
void f(void) { printf("%s\n", 5); }
