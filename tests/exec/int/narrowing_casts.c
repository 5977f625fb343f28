#include <stdio.h>

static long long vals[] = { 0, 1, -1, 127, 128, 255, 256, -128, -129, 32767, 32768, 65535, 65536,
                            2147483647LL, 2147483648LL, 4294967295LL, 4294967296LL, -2147483648LL,
                            0x123456789abcdefLL, -0x123456789abcdefLL };

int main(void) {
    int i;
    for (i = 0; i < (int)(sizeof vals / sizeof vals[0]); i++) {
        long long v = vals[i];
        printf("%lld: %d %d %d %d %d %u %lu\n", v, (signed char)v, (unsigned char)v, (short)v,
               (unsigned short)v, (int)v, (unsigned)v, (unsigned long)v);
    }
    /* widening keeps the value: sign or zero extension by source type */
    {
        signed char sc = -5;
        unsigned char uc = 251;
        short s = -5;
        unsigned short us = 65531;
        int n = -5;
        unsigned u = 4294967291u;
        printf("%lld %lld %lld %lld %lld %lld\n", (long long)sc, (long long)uc, (long long)s,
               (long long)us, (long long)n, (long long)u);
        printf("%llu %llu\n", (unsigned long long)sc, (unsigned long long)n);
    }
    return 0;
}
