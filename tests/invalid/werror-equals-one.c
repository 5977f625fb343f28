// options: -Wall -Werror=unused-variable
void f(void) { int unused; int *p = 0; long *q = p; }
