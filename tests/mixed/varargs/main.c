#include <stdio.h>
#include "va.h"

int main(void) {
  printf("ints %ld\n", sum_ints(5, 1, -2, 3, -4, 5));
  printf("ints many %ld\n", sum_ints(12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
  printf("doubles %.4f\n", sum_doubles(10, 1.0, 0.5, 0.25, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0));
  printf("long doubles %.4Lf\n", sum_long_doubles(3, 1.5L, 2.5L, 0.25L));
  struct small s = { -3, 9 };
  struct fd f = { 1.5f, -0.75 };
  struct big b = { { 10, 20, 30, 40 } };
  printf("mixed %.3f\n", sum_mixed("sifldbp", s, 4, f, 5L, 0.125, b, "four"));
  printf("many %.3f\n", call_with_many());
  char buf[64];
  int n = format_into(buf, sizeof buf, "[%d %s %.2f %c]", 42, "x", 3.5, 'z');
  printf("format %d %s\n", n, buf);
  return 0;
}
