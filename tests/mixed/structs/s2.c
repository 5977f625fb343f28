#include "st.h"

struct big s2_big(struct big x, struct c3 y) {
  for (int i = 0; i < 5; i++) x.v[i] += y.a * 100 + y.b * 10 + y.c;
  return x;
}
struct dd s2_dd(struct dd x) { struct dd r = { x.b, x.a * 4 }; return r; }
struct id s2_id(struct id x, struct di y) {
  struct id r = { x.i + (int)y.l, x.d + y.d };
  return r;
}
struct ld s2_ld(struct ld x) { struct ld r = { x.x * x.x * x.x }; return r; }
struct bits s2_bits(struct bits x, struct pk y) {
  struct bits r = { x.a ^ y.c, x.b ^ y.i, x.c * 2, x.d + y.s };
  return r;
}
long s2_to_s1(void) {
  struct c3 a = s1_c3((struct c3){ 10, 20, 30 });
  struct ff ff = { 1.5f, 2.0f };
  struct si b = s1_si((struct si){ 7, 1000 }, ff);
  struct f3 c = s1_f3((struct f3){ 1, 2, 3 }, 0.5f);
  struct dd d = s1_dd((struct dd){ 1, 2 }, (struct id){ 3, 4.5 }, (struct di){ 5.5, 6 });
  struct fi e = s1_fi((struct fi){ 2.5f, 10, 'a' });
  struct big f = s1_big((struct big){ { 1, 2, 3, 4, 5 } }, 3);
  struct ld g = s1_ld((struct ld){ 1.5L }, (struct ld){ 4.0L });
  return a.a + a.b * 2 + a.c * 3 + b.s + b.i + (long)(c.x * 10 + c.y * 100 + c.z * 1000) +
         (long)(d.a * 10) + (long)d.b + (long)e.f + e.i + e.c + f.v[0] + f.v[4] * 7 +
         (long)(g.x * 2);
}
