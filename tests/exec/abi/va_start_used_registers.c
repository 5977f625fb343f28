/* va_start after named parameters that skip or close registers (AAPCS64 counts the
   registers they leave, not the ones they hold): a record of natural alignment 16 skips
   to an even general register; a record that no longer fits in the general registers,
   or an HFA that no longer fits in the SIMD registers, goes to the stack and closes the
   file, so the variadic arguments of that file come from the stack too. */
#include <stdarg.h>
#include <stdio.h>

struct Q { long x __attribute__((aligned(16))); long y; };
struct P { long a, b; };
struct H4 { double a, b, c, d; };

static long skip(long n, struct Q q, ...) {
    va_list ap;
    va_start(ap, q);
    long s = q.x * 100 + q.y;
    for (long i = 0; i < n; i++) {
        long v = va_arg(ap, long);
        printf("skip %ld: %ld\n", i, v);
        s += v;
    }
    va_end(ap);
    return s;
}

static long gpr_closed(long a, long b, long c, long d, long e, long f, long g, struct P p, ...) {
    va_list ap;
    va_start(ap, p);
    long x = va_arg(ap, long);
    long y = va_arg(ap, long);
    double z = va_arg(ap, double);
    va_end(ap);
    printf("gpr_closed %ld %ld %ld %g\n", p.a + p.b, x, y, z);
    return a + b + c + d + e + f + g + x + y;
}

static double simd_closed(struct H4 h, double d, struct H4 k, ...) {
    va_list ap;
    va_start(ap, k);
    double x = va_arg(ap, double);
    long i = va_arg(ap, long);
    double y = va_arg(ap, double);
    va_end(ap);
    printf("simd_closed %g %g %g %ld %g\n", h.a + h.d, k.b + k.c, x, i, y);
    return d + x + y;
}

int main(void) {
    struct Q q = { 3, 4 };
    printf("%ld\n", skip(3, q, 10L, 20L, 30L));
    struct P p = { 5, 6 };
    printf("%ld\n", gpr_closed(1, 2, 3, 4, 5, 6, 7, p, 8L, 9L, 0.5));
    struct H4 h = { 1, 2, 3, 4 }, k = { 5, 6, 7, 8 };
    printf("%g\n", simd_closed(h, 0.25, k, 1.5, 42L, 2.75));
    return 0;
}
