void take(int *);
void f(void) { take(5); }
