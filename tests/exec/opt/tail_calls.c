#include <stdio.h>

static long __attribute__((noinline)) count_down(long n, long acc) { if (n == 0) return acc; return count_down(n - 1, acc + n); }
static int __attribute__((noinline)) with_stack_args(int a, int b, int c, int d, int e, int f, int g, int h) { return a + b + c + d + e + f + g + h; }
static int __attribute__((noinline)) forwards(int a, int b, int c, int d, int e, int f, int g, int h) { return with_stack_args(h, g, f, e, d, c, b, a + 1); }
static double __attribute__((noinline)) fwd_double(double x, int n) { return n ? fwd_double(x * 2, n - 1) : x; }

int main(void) {
    printf("%ld\n", count_down(100000, 0));
    printf("%d\n", forwards(1, 2, 3, 4, 5, 6, 7, 8));
    printf("%g\n", fwd_double(0.5, 10));
    return 0;
}
