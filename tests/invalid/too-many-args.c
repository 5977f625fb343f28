int add(int a, int b);
int f(void) { return add(1, 2, 3); }
