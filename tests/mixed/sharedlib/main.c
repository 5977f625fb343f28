#include <stdio.h>
#include <string.h>
#include "shlib.h"

static int by_name(const void *a, const void *b) {
  return strcmp(((const struct item *)a)->name, ((const struct item *)b)->name);
}

static double discounted(struct item it) { return it.qty * it.price * (it.qty > 20 ? 0.5 : 1.0); }

static void show(const char *what) {
  printf("%s:", what);
  for (int i = 0; i < 4; i++) printf(" %s/%d", shl_items[i].name, shl_items[i].qty);
  printf("\n");
}

int main(void) {
  printf("counter %d names %s %s %s\n", shl_counter, shl_names[0], shl_names[1], shl_names[2]);
  shl_sort(shl_items, 4, 0);
  show("default");
  shl_sort(shl_items, 4, by_name);
  show("by name");
  struct total t = shl_total(shl_items, 4, 0);
  printf("total %ld %.3f\n", t.count, t.value);
  t = shl_total(shl_items, 4, discounted);
  printf("discounted %ld %.3f\n", t.count, t.value);
  struct item c = shl_cheapest(shl_items[0], shl_items[2]);
  printf("cheapest %s %.2f\n", c.name, c.price);
  printf("sum %ld\n", shl_sum(5, 1L, 2L, 3L, 4L, 5L));
  printf("sum many %ld\n", shl_sum(9, 9L, 8L, 7L, 6L, 5L, 4L, 3L, 2L, 1L));
  int b1 = shl_tls_bump();
  int b2 = shl_tls_bump();
  printf("tls %d %d\n", b1, b2);
  printf("same function %d %d %d\n", shl_is_default(shl_by_qty), shl_is_default(by_name),
         shl_default_cmp == shl_by_qty);
  shl_counter += 1000;
  printf("counter %d\n", shl_counter);
  return 0;
}
