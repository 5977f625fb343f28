#include <string.h>
#include "cb.h"

int by_key(const void *a, const void *b) {
  const struct rec *x = a, *y = b;
  return (x->key > y->key) - (x->key < y->key);
}

int by_name_desc(const void *a, const void *b) {
  const struct rec *x = a, *y = b;
  return -strcmp(x->name, y->name);
}

int by_weight(const void *a, const void *b) {
  const struct rec *x = a, *y = b;
  return (x->weight > y->weight) - (x->weight < y->weight);
}

struct pair combine(struct pair p, double scale) {
  struct pair r = { p.a * 3 + (long)scale, p.b * scale };
  return r;
}

struct big bigger(struct big b, int add) {
  for (int i = 0; i < 9; i++) b.v[i] += add * i;
  return b;
}

static int add(int a, int b) { return a + b; }
static int mul(int a, int b) { return a * b; }
static int sub(int a, int b) { return a - b; }

binop pick(char c) {
  switch (c) {
  case '+': return add;
  case '*': return mul;
  case '-': return sub;
  default: return 0;
  }
}

double fold(const double *v, size_t n, double (*f)(double, double), double init) {
  for (size_t i = 0; i < n; i++) init = f(init, v[i]);
  return init;
}
