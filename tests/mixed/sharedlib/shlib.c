#include <stdarg.h>
#include <stdlib.h>
#include "shlib.h"

int shl_counter = 100;
struct item shl_items[4] = {
  { "bolt", 40, 0.25 }, { "nut", 75, 0.1 }, { "gear", 3, 12.5 }, { "spring", 18, 1.75 },
};
const char *const shl_names[] = { "alpha", "beta", "gamma", 0 };
/* Thread-local and private to the library (an exported one would need the
   general-dynamic model). */
static __thread int tls_calls = 7;

int shl_by_qty(const void *a, const void *b) {
  const struct item *x = a, *y = b;
  return x->qty - y->qty;
}

int (*const shl_default_cmp)(const void *, const void *) = shl_by_qty;

void shl_sort(struct item *v, size_t n, int (*cmp)(const void *, const void *)) {
  shl_counter++;
  qsort(v, n, sizeof *v, cmp ? cmp : shl_default_cmp);
}

struct total shl_total(const struct item *v, size_t n, double (*adjust)(struct item)) {
  struct total t = { 0, 0 };
  for (size_t i = 0; i < n; i++) {
    t.count += v[i].qty;
    t.value += adjust ? adjust(v[i]) : v[i].qty * v[i].price;
  }
  shl_counter++;
  return t;
}

struct item shl_cheapest(struct item a, struct item b) { return a.price <= b.price ? a : b; }

long shl_sum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long s = 0;
  for (int i = 0; i < n; i++) s = s * 10 + va_arg(ap, long);
  va_end(ap);
  return s;
}

int shl_tls_bump(void) { return ++tls_calls; }

int shl_is_default(int (*f)(const void *, const void *)) { return f == shl_by_qty; }
