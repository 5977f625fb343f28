// options: -Wall -w
void f(void) { int unused; int *p = 0; long *q = p; x; }
