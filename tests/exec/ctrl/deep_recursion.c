#include <stdio.h>

static long depth_sum(long n, double pad) {
    volatile char buf[64];
    buf[0] = (char)n;
    if (n == 0) return (long)pad;
    return n + buf[0] * 0 + depth_sum(n - 1, pad + 0.5);
}

int main(void) {
    printf("%ld\n", depth_sum(20000, 0));
    return 0;
}
