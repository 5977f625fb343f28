// options: -Wall -Werror
void f(void) { int unused; }
