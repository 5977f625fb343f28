#include "st.h"

struct c3 s1_c3(struct c3 x) { struct c3 r = { x.c + 1, x.b + 2, x.a + 3 }; return r; }
struct si s1_si(struct si x, struct ff y) {
  struct si r = { x.s * 2, x.i + (int)(y.x * 10) + (int)y.y };
  return r;
}
struct f3 s1_f3(struct f3 x, float k) { struct f3 r = { x.z * k, x.y * k, x.x * k }; return r; }
struct dd s1_dd(struct dd x, struct id y, struct di z) {
  struct dd r = { x.a + y.d + z.d, x.b * y.i + z.l };
  return r;
}
struct fi s1_fi(struct fi x) { struct fi r = { x.f * 2, x.i - 1, x.c + 1 }; return r; }
struct big s1_big(struct big x, int k) {
  for (int i = 0; i < 5; i++) x.v[i] = x.v[i] * k + i;
  return x;
}
struct ld s1_ld(struct ld x, struct ld y) { struct ld r = { x.x * y.x + 0.5L }; return r; }
struct bits s1_bits(struct bits x) {
  struct bits r = { x.a + 1, x.b + 1, x.c - 1, x.d + 1 };
  return r;
}
union u s1_u(union u x) { union u r; r.l = x.l ^ 0x0f0f; r.c[10] = 'u'; r.c[11] = 0; return r; }
struct nested s1_nested(struct nested x) {
  struct nested r = { { x.c.c, x.c.b, x.c.a }, { x.f.y, x.f.x } };
  return r;
}
struct pk s1_pk(struct pk x) { struct pk r = { x.c + 1, x.i * 3, x.s - 2 }; return r; }
long s1_many(struct si a, struct dd b, struct big c, struct id d, struct di e, struct f3 f,
             struct c3 g, struct ld h, struct fi i, struct dd j, int k, double l) {
  return a.s + a.i + (long)(b.a + b.b) + c.v[0] + c.v[4] + d.i + (long)d.d + (long)e.d + e.l +
         (long)(f.x + f.y + f.z) + g.a + g.c + (long)h.x + (long)i.f + i.i + i.c +
         (long)(j.a * j.b) + k + (long)l;
}
long s1_to_s2(void) {
  struct big b = { { 1, 2, 3, 4, 5 } };
  struct c3 c = { 1, 2, 3 };
  struct big r = s2_big(b, c);
  struct dd d = { 1.5, 2.5 };
  struct dd e = s2_dd(d);
  struct id i = { 3, 0.25 };
  struct di j = { 8.0, 9 };
  struct id k = s2_id(i, j);
  struct ld l = { 2.0L };
  struct ld m = s2_ld(l);
  struct bits bt = { 5, 100, -7, 123456789012LL };
  struct pk p = { 1, 2, 3 };
  struct bits bu = s2_bits(bt, p);
  return r.v[0] + r.v[4] * 10 + (long)(e.a * 100 + e.b) + k.i + (long)(k.d * 8) +
         (long)(m.x * 4) + bu.a + bu.b + bu.c + (long)(bu.d % 1000);
}
