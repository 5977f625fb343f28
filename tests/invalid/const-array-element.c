const int a[2];
void f(void) { a[0] = 1; }
