#include <stdio.h>
#include <string.h>
#include "va.h"

long sum_ints(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, int) * (long)(i + 1);
  va_end(ap);
  return s;
}

double sum_doubles(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; i++) s = s * 2 + va_arg(ap, double);
  va_end(ap);
  return s;
}

long double sum_long_doubles(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long double s = 0;
  for (int i = 0; i < n; i++) s = s * 3 + va_arg(ap, long double);
  va_end(ap);
  return s;
}

double vsum_mixed(const char *spec, va_list ap) {
  double s = 0;
  for (const char *p = spec; *p; p++) {
    s *= 2;
    switch (*p) {
    case 'i': s += va_arg(ap, int); break;
    case 'l': s += va_arg(ap, long); break;
    case 'd': s += va_arg(ap, double); break;
    case 'L': s += (double)va_arg(ap, long double); break;
    case 's': { struct small x = va_arg(ap, struct small); s += x.s * 10 + x.c; break; }
    case 'f': { struct fd x = va_arg(ap, struct fd); s += x.f + x.d; break; }
    case 'b': { struct big x = va_arg(ap, struct big); s += x.v[0] + x.v[1] + x.v[2] + x.v[3]; break; }
    case 'p': s += strlen(va_arg(ap, char *)); break;
    }
  }
  return s;
}

int format_into(char *buf, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vformat_twice(buf, n, fmt, ap); /* the va_list goes to the other compiler */
  va_end(ap);
  return r;
}
