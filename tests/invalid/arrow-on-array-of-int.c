int a[2];
int f(void) { return a->x; }
