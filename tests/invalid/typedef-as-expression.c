typedef int T;
int f(void) { return 1 + T; }
int g(void) { int x = T; return x; }
int h(int T) { return T; }
