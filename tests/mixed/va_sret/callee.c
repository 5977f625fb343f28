/* Variadic functions returning records in memory (through the hidden pointer in %rdi):
   the variadic integer arguments start in %rsi (FINDINGS.md F5). */
#include <stdarg.h>
struct big { long v[4]; };
struct three { double a, b, c; };

struct big make_big(int n, ...) {
  va_list ap;
  va_start(ap, n);
  struct big b = { { 0, 0, 0, 0 } };
  for (int i = 0; i < n && i < 4; i++) b.v[i] = va_arg(ap, long);
  va_end(ap);
  return b;
}

struct three make_three(const char *spec, ...) {
  va_list ap;
  va_start(ap, spec);
  struct three t = { 0, 0, 0 };
  double *out[] = { &t.a, &t.b, &t.c };
  for (int i = 0; spec[i] && i < 3; i++)
    *out[i] = spec[i] == 'd' ? va_arg(ap, double) : (double)va_arg(ap, int);
  va_end(ap);
  return t;
}
