#include <stdio.h>

static double __attribute__((noinline)) g(double x) { return x * 1.5; }
static long __attribute__((noinline)) h(long x) { return x ^ 0x55; }

int main(void) {
    double d[10];
    long l[10];
    double dsum = 0;
    long lsum = 0;
    int i;
    /* every value is live across calls: floating values cannot stay in xmm registers (all caller-saved) */
    double a = g(1), b = g(2), c = g(3), e = g(4), f = g(5), k = g(6), m = g(7), n = g(8);
    long p = h(1), q = h(2), r = h(3), s = h(4), t = h(5), u = h(6), v = h(7), w = h(8);
    for (i = 0; i < 10; i++) { d[i] = g(i) + a; l[i] = h(i) + p; }
    for (i = 0; i < 10; i++) { dsum += d[i]; lsum += l[i]; }
    printf("%g %g %g %g %g %g %g %g\n", a, b, c, e, f, k, m, n);
    printf("%ld %ld %ld %ld %ld %ld %ld %ld\n", p, q, r, s, t, u, v, w);
    printf("%g %ld\n", dsum + a + b + c + e + f + k + m + n, lsum + p + q + r + s + t + u + v + w);
    return 0;
}
