// options: -Wall
int f(void) { int a[2], b[2]; return a == b; }
