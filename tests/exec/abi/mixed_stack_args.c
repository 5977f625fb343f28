#include <stdio.h>

struct s3 { char c[3]; };
struct s12 { int a, b, c; };

static long f(int a, struct s12 s, double d0, struct s3 t, double d1, double d2, double d3, double d4,
              double d5, double d6, double d7, double d8, int b, int c, int e, long g, struct s12 u, char h) {
    printf("%d %d %d %d %g %d %d %d %g %g %g\n", a, s.a, s.b, s.c, d0, t.c[0], t.c[1], t.c[2], d1, d7, d8);
    printf("%d %d %d %ld %d %d %d %d\n", b, c, e, g, u.a, u.b, u.c, h);
    return a + s.c + t.c[2] + b + c + e + g + u.c + h + (long)(d0 + d1 + d2 + d3 + d4 + d5 + d6 + d7 + d8);
}

int main(void) {
    struct s12 s = { 1, 2, 3 }, u = { -4, -5, -6 };
    struct s3 t = { { 'x', 'y', 'z' } };
    printf("%ld\n", f(10, s, 0.5, t, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 20, 30, 40, 50L, u, 'q'));
    return 0;
}
