// options: -Wall -Wextra
int f(int a, int b, int c, unsigned u, char ch, unsigned char uc, long l, unsigned short us) {
  int r = 0;
  r += a << b + c;
  r += a & b == c;
  r += a + b | c;
  r += a | b == c;
  r += ch < u;
  r += uc < u;
  r += 5 < u;
  r += a == u;
  r += l < u;
  r += us < a;
  r += a < sizeof(int);
  r += (a = b) ? 1 : 2;
  r += a = b ? 1 : 2;
  while (a = b) ;
  r += a - b >> c;
  r += a && b || c && a;
  return r;
}
void g(const volatile int *p, volatile int *q) { int *x = p; int *y = q; x = y; }
