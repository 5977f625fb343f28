#include <stdio.h>

static int __attribute__((noinline)) max(int a, int b) { return a > b ? a : b; }
static unsigned __attribute__((noinline)) umin(unsigned a, unsigned b) { return a < b ? a : b; }
static long __attribute__((noinline)) pick(int c, long a, long b) { return c ? a : b; }
static double __attribute__((noinline)) dsel(double x) { return x < 0 ? -x : x * 2; }
static const char *__attribute__((noinline)) ssel(int c) { return c > 0 ? "pos" : c < 0 ? "neg" : "zero"; }

int main(void) {
    printf("%d %d %d\n", max(-1, 1), max(5, -5), max(-2147483647 - 1, 2147483647));
    printf("%u %u\n", umin(1, -1u), umin(-2u, -1u));
    printf("%ld %ld\n", pick(0, 1L << 40, -1), pick(7, 1L << 40, -1));
    printf("%g %g %g\n", dsel(-2.5), dsel(2.5), dsel(-0.0));
    printf("%s %s %s\n", ssel(5), ssel(-5), ssel(0));
    return 0;
}
