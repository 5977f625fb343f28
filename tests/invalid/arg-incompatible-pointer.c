void take(int *);
void f(double *d) { take(d); }
