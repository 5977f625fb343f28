#include <stdio.h>

/* compare results used both as values and as branch conditions */
static int __attribute__((noinline)) both(long a, long b) {
    int lt = a < b;
    if (lt) return lt + 10;
    return (a == b) + 20;
}

static int __attribute__((noinline)) unsigned_cmp(unsigned long a, unsigned long b) {
    return (a < b) * 1 + (a <= b) * 2 + (a > b) * 4 + (a >= b) * 8;
}

static int __attribute__((noinline)) fcmp(double a, double b) {
    int r = 0;
    if (a < b) r |= 1;
    if (a <= b) r |= 2;
    if (a > b) r |= 4;
    if (a >= b) r |= 8;
    if (a == b) r |= 16;
    if (a != b) r |= 32;
    if (!(a < b)) r |= 64;
    return r;
}

int main(void) {
    double nan = __builtin_nan("");
    printf("%d %d %d\n", both(1, 2), both(2, 2), both(3, 2));
    printf("%d %d %d\n", unsigned_cmp(1, 2), unsigned_cmp(2, 2), unsigned_cmp(-1UL, 2));
    printf("%d %d %d %d\n", fcmp(1, 2), fcmp(2, 2), fcmp(3, 2), fcmp(nan, 1));
    return 0;
}
