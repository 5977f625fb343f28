void take(double);
void f(int *p) { take(p); }
