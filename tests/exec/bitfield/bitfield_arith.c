#include <stdio.h>

struct S { signed int s4 : 4; unsigned int u4 : 4; signed int s12 : 12; unsigned long long u40 : 40; long long s40 : 40; };

int main(void) {
    struct S x = { -8, 15, -2048, 0xffffffffffULL, -549755813888LL };
    /* unsigned bit-fields narrower than int promote to int */
    printf("%d %d\n", x.u4 - 16 < 0, x.s4 * x.u4);
    printf("%d %d\n", x.s12 / 3, x.s12 % 7);
    printf("%llu %lld\n", (unsigned long long)(x.u40 + 1), (long long)x.s40);
    x.s4 = 7;
    x.s4 += 1;
    printf("%d\n", x.s4);
    x.u40 += 2;
    printf("%llu\n", (unsigned long long)x.u40);
    x.s40 = x.s40 + 1;
    printf("%lld\n", (long long)x.s40);
    printf("%d %d\n", x.u4 > 14, -x.u4);
    printf("%d\n", (int)sizeof(x.u4 + 0));
    return 0;
}
