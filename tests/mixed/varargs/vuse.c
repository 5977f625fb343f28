#include <stdio.h>
#include "va.h"

double sum_mixed(const char *spec, ...) {
  va_list ap;
  va_start(ap, spec);
  double r = vsum_mixed(spec, ap);
  va_end(ap);
  return r;
}

int vformat_twice(char *buf, size_t n, const char *fmt, va_list ap) {
  va_list copy;
  va_copy(copy, ap);
  int a = vsnprintf(buf, n, fmt, ap);
  size_t used = (size_t)a < n ? (size_t)a : n;
  int b = vsnprintf(buf + used, n - used, fmt, copy);
  va_end(copy);
  return a + b;
}

double call_with_many(void) {
  struct small s = { 7, 3 };
  struct fd f = { 0.5f, 2.25 };
  struct big b = { { 1, 2, 3, 4 } };
  /* More than six integer and eight floating-point arguments: some on the stack. */
  return sum_mixed("idldsfbLpidddddddd", 1, 2.5, 3L, 4.0, s, f, b, (long double)6.5, "hello",
                   9, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0);
}
