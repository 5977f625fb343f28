#include <stdlib.h>
#include "cb.h"

void sort_recs(struct rec *r, size_t n, int (*cmp)(const void *, const void *)) {
  qsort(r, n, sizeof *r, cmp);
}

struct pair map_pair(struct pair (*f)(struct pair, double), struct pair p, double s) {
  struct pair q = f(p, s);
  return f(q, s + 1);
}

long sum_big(struct big (*f)(struct big, int), int add) {
  struct big b;
  for (int i = 0; i < 9; i++) b.v[i] = i * i;
  b = f(b, add);
  long s = 0;
  for (int i = 0; i < 9; i++) s += b.v[i] * (long)(i + 1);
  return s;
}

int apply_all(binop (*chooser)(char), const char *ops, int x) {
  for (const char *p = ops; *p; p++) {
    binop f = chooser(*p);
    if (f) x = f(x, 3);
  }
  return x;
}

static double maxd(double a, double b) { return a > b ? a : b; }
static const double vals[] = { 2.5, -1.0, 7.25, 3.0 };

double call_fold(double (*f)(double, double)) {
  return fold(vals, 4, f, 0.0) + fold(vals, 4, maxd, -100.0);
}
