/* Inlined functions taking and returning structs by value: small ones in registers,
   large ones in memory (the callee's own copy must not change the caller's), returned
   through a hidden pointer, nested, and with mixed float and integer members. */
#include <stdio.h>

struct v3 { int x, y, z; };
struct big { long a[6]; };
struct mix { double d; float f; int i; };
struct pair { short s; char c; };

static struct v3 add(struct v3 a, struct v3 b) { struct v3 r = {a.x + b.x, a.y + b.y, a.z + b.z}; return r; }
static struct v3 neg(struct v3 a) { a.x = -a.x; a.y = -a.y; a.z = -a.z; return a; }
static long dot(struct v3 a, struct v3 b) { return (long)a.x * b.x + (long)a.y * b.y + (long)a.z * b.z; }
static struct big bump(struct big b, long k) {
    for (int i = 0; i < 6; i++) b.a[i] += k * i;
    return b;
}
static long total(struct big b) { long s = 0; for (int i = 0; i < 6; i++) s += b.a[i]; return s; }
static struct mix scale(struct mix m, double k) { m.d *= k; m.f *= (float)k; m.i = (int)(m.i * k); return m; }
static struct pair mkpair(int s, int c) { struct pair p = {(short)s, (char)c}; return p; }

int main(void) {
    struct v3 a = {1, 2, 3}, b = {10, 20, 30};
    struct v3 c = add(a, neg(b));
    printf("%d %d %d %ld\n", c.x, c.y, c.z, dot(c, a));
    struct big g = {{1, 2, 3, 4, 5, 6}};
    struct big h = bump(g, 10);
    printf("%ld %ld %ld\n", total(g), total(h), total(bump(bump(h, 1), -2)));
    struct mix m = {1.5, 2.5f, 7};
    struct mix n = scale(m, 3.0);
    printf("%.2f %.2f %d | %.2f %.2f %d\n", m.d, m.f, m.i, n.d, n.f, n.i);
    struct pair p = mkpair(70000, 300);
    printf("%d %d\n", p.s, p.c);
    struct v3 acc = {0, 0, 0};
    for (int i = 0; i < 100; i++) {
        struct v3 d = {i, -i, i * 2};
        acc = add(acc, i & 1 ? neg(d) : d);
    }
    printf("%d %d %d\n", acc.x, acc.y, acc.z);
    return 0;
}
