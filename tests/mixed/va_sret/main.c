#include <stdio.h>
struct big { long v[4]; };
struct three { double a, b, c; };
struct big make_big(int n, ...);
struct three make_three(const char *spec, ...);

int main(void) {
  struct big m = make_big(3, 7L, 8L, 9L);
  printf("big %ld %ld %ld %ld\n", m.v[0], m.v[1], m.v[2], m.v[3]);
  struct big k = make_big(4, 1L, 2L, 3L, 4L, 5L, 6L, 7L);
  printf("big %ld %ld %ld %ld\n", k.v[0], k.v[1], k.v[2], k.v[3]);
  struct three t = make_three("idi", 5, 2.5, 6);
  printf("three %.1f %.1f %.1f\n", t.a, t.b, t.c);
  return 0;
}
