// options: -Wall
void f(void) {
  int a = 0;
  a += 1;
  int b = 0;
  b++;
  volatile int c;
  int d;
  d = 1;
  int e[2];
  e[0] = 1;
  struct { int m; } s;
  s.m = 1;
  static int t;
  int *p;
  p = &t;
}
int g(int x) { int y; y = x; return 0; }
