void f(void) { long l; int *p = &l; }
