void take(int *);
void f(long *p) { take(p); }
