#include <stdio.h>

struct f2 { float x, y; };
struct d2 { double x, y; };
struct fd { float f; double d; };
struct mix { double d; long l; };

static struct f2 f2op(struct f2 a, struct f2 b, float k) { struct f2 r = { a.x * k + b.x, a.y * k + b.y }; return r; }
static struct d2 d2op(double k, struct d2 a) { struct d2 r = { a.y * k, a.x / k }; return r; }
static struct fd fdop(struct fd a, int n) { a.f *= n; a.d += n; return a; }
static struct mix mixop(struct mix a, struct mix b) { struct mix r = { a.d + b.d, a.l * b.l }; return r; }
static double all(struct f2 a, struct d2 b, struct fd c, struct mix d, double e, float f, struct d2 g) {
    return a.x + a.y + b.x + b.y + c.f + c.d + d.d + (double)d.l + e + f + g.x + g.y;
}

int main(void) {
    struct f2 a = { 1.5f, -2.0f }, b = { 0.25f, 4.0f };
    struct d2 c = { 3.0, 9.0 };
    struct fd e = { 2.5f, 1.0 / 3 };
    struct mix m = { 0.5, 7 }, n = { 1.25, -3 };
    struct f2 r1 = f2op(a, b, 3.0f);
    struct d2 r2 = d2op(2.0, c);
    struct fd r3 = fdop(e, 4);
    struct mix r4 = mixop(m, n);
    printf("%g %g\n", r1.x, r1.y);
    printf("%g %g\n", r2.x, r2.y);
    printf("%g %.10f\n", r3.f, r3.d);
    printf("%g %ld\n", r4.d, r4.l);
    printf("%.6f\n", all(a, c, e, m, 100.0, 0.125f, r2));
    return 0;
}
