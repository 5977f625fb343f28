/* _Float16 objects as neverc compiles them so far: static initialisers (double
   constants rounded to nearest, ties to even), copies, arguments in xmm registers and on
   the stack, variadic arguments and results. Values are compared as bits: arithmetic on
   _Float16 is not compiled yet. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Float16 consts[] = { 1.5, 65504.0, 65520.0, 65519.0, 1e-8, 6e-8, 2.98e-8,
                             2.99e-8, 0.1, -0.0, 1e10, -3.0, 0.333333, 6.1e-5,
                             6.097e-5, 1.0009765625, 1.00048828125, 1.00146484375,
                             0, 2047.0, 4097.0 };

static unsigned bits(_Float16 h) {
  unsigned short u;
  memcpy(&u, &h, 2);
  return u;
}

static _Float16 half(unsigned u) {
  unsigned short s = (unsigned short)u;
  _Float16 h;
  memcpy(&h, &s, 2);
  return h;
}

static _Float16 id(_Float16 x) { return x; }

static _Float16 pick_last(int n, ...) {
  va_list ap;
  va_start(ap, n);
  _Float16 r = half(0);
  for (int i = 0; i < n; i++) {
    _Float16 t = va_arg(ap, _Float16);
    if (i == n - 1)
      r = t;
  }
  va_end(ap);
  return r;
}

/* Eight doubles fill xmm0-xmm7: the two _Float16 arguments go on the stack. */
static _Float16 ninth(double a, double b, double c, double d, double e, double f,
                      double g, double h, _Float16 s, _Float16 t) {
  printf("stack: %04x %04x %g\n", bits(s), bits(t), a + b + c + d + e + f + g + h);
  return t;
}

struct pair { _Float16 a, b; };

static struct pair swap(struct pair p) {
  struct pair r = { p.b, p.a };
  return r;
}

int main(void) {
  for (unsigned i = 0; i < sizeof consts / sizeof consts[0]; i++)
    printf("%04x%c", bits(consts[i]), i % 7 == 6 ? '\n' : ' ');
  printf("id: %04x\n", bits(id(half(0x3c00))));
  printf("variadic: %04x\n", bits(pick_last(3, half(0x3c00), half(0x4000), half(0x4200))));
  printf("ninth: %04x\n", bits(ninth(1, 2, 3, 4, 5, 6, 7, 8, half(0x1234), half(0xabcd))));
  struct pair p = { half(0x1111), half(0x2222) };
  struct pair q = swap(p);
  printf("swap: %04x %04x\n", bits(q.a), bits(q.b));
  return 0;
}
