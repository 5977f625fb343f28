#include <stdio.h>
#include "st.h"

int main(void) {
  struct c3 a = s1_c3((struct c3){ 'a', 'b', 'c' });
  printf("c3 %c %c %c\n", a.a, a.b, a.c);
  struct si b = s1_si((struct si){ -4, 100 }, (struct ff){ 0.5f, 7.0f });
  printf("si %d %d\n", b.s, b.i);
  struct f3 c = s1_f3((struct f3){ 1.0f, 2.0f, 4.0f }, 1.5f);
  printf("f3 %.2f %.2f %.2f\n", c.x, c.y, c.z);
  struct dd d = s1_dd((struct dd){ 0.25, 3.0 }, (struct id){ -2, 1.75 }, (struct di){ 8.5, 11 });
  printf("dd %.3f %.3f\n", d.a, d.b);
  struct fi e = s1_fi((struct fi){ -1.25f, 77, 'x' });
  printf("fi %.2f %d %c\n", e.f, e.i, e.c);
  struct big f = s1_big((struct big){ { 10, 20, 30, 40, 50 } }, -2);
  printf("big %ld %ld %ld %ld %ld\n", f.v[0], f.v[1], f.v[2], f.v[3], f.v[4]);
  struct ld g = s1_ld((struct ld){ 3.0L }, (struct ld){ 0.5L });
  printf("ld %.3Lf\n", g.x);
  struct bits h = s1_bits((struct bits){ 6, 120, -2000, 0xfffffffffeULL });
  printf("bits %u %u %d %llx\n", h.a, h.b, h.c, (unsigned long long)h.d);
  union u i;
  i.l = 0x1234;
  union u j = s1_u(i);
  printf("union %lx %c\n", j.l, j.c[10]);
  struct nested k = s1_nested((struct nested){ { 1, 2, 3 }, { 1.5f, -2.5f } });
  printf("nested %d %d %d %.1f %.1f\n", k.c.a, k.c.b, k.c.c, k.f.x, k.f.y);
  struct pk l = s1_pk((struct pk){ 'p', 1000, 5 });
  printf("packed %c %d %d\n", l.c, l.i, l.s);
  long m = s1_many((struct si){ 1, 2 }, (struct dd){ 3, 4 }, (struct big){ { 5, 0, 0, 0, 6 } },
                   (struct id){ 7, 8 }, (struct di){ 9, 10 }, (struct f3){ 11, 12, 13 },
                   (struct c3){ 14, 0, 15 }, (struct ld){ 16 }, (struct fi){ 17, 18, 19 },
                   (struct dd){ 4, 5 }, 21, 22.0);
  printf("many %ld\n", m);
  printf("s1->s2 %ld\n", s1_to_s2());
  printf("s2->s1 %ld\n", s2_to_s1());
  return 0;
}
