int f(int x) { return 0 && x / 0; }
int g(int x) { return 1 || x % 0; }
int h(int x) { return x / 0; }
int k(void) { return 0x7fffffff * 2 + 5; }
int m(int x) { return (x - 1) * 3 + (-2147483647 - 1); }
