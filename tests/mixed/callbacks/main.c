#include <stdio.h>
#include <stdlib.h>
#include "cb.h"

static void show(const char *what, const struct rec *r, size_t n) {
  printf("%s:", what);
  for (size_t i = 0; i < n; i++) printf(" %d/%s/%.1f", r[i].key, r[i].name, r[i].weight);
  printf("\n");
}

static double plus(double a, double b) { return a + b; }

int main(void) {
  struct rec r[] = {
    { 5, "eve", 2.5 }, { 1, "bob", 9.0 }, { 9, "alice", 0.5 },
    { 3, "dan", 4.0 }, { 7, "carol", 1.5 }, { 2, "frank", 3.25 },
  };
  size_t n = sizeof r / sizeof *r;
  qsort(r, n, sizeof *r, by_key); /* main calls libc's qsort with cmp.c's comparator */
  show("by key", r, n);
  sort_recs(r, n, by_name_desc);
  show("by name desc", r, n);
  sort_recs(r, n, by_weight);
  show("by weight", r, n);
  struct rec key = { 7, "", 0 };
  qsort(r, n, sizeof *r, by_key);
  struct rec *found = bsearch(&key, r, n, sizeof *r, by_key);
  printf("found %s\n", found ? found->name : "none");
  struct pair p = { 4, 1.5 };
  struct pair q = map_pair(combine, p, 2.0);
  printf("pair %ld %.3f\n", q.a, q.b);
  printf("big %ld\n", sum_big(bigger, 2));
  printf("ops %d\n", apply_all(pick, "+*-?*", 1));
  printf("fold %.2f\n", call_fold(plus));
  binop f = pick('*');
  printf("pick %d\n", f(6, 7));
  return 0;
}
