#include <stdio.h>

static unsigned long long mulhi(unsigned long long a, unsigned long long b) {
    unsigned long long alo = a & 0xffffffffu, ahi = a >> 32;
    unsigned long long blo = b & 0xffffffffu, bhi = b >> 32;
    unsigned long long p0 = alo * blo, p1 = alo * bhi, p2 = ahi * blo, p3 = ahi * bhi;
    unsigned long long mid = (p0 >> 32) + (p1 & 0xffffffffu) + (p2 & 0xffffffffu);
    return p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32);
}

int main(void) {
    unsigned long long v[] = { 0, 1, 3, 0xffffffffull, 0x100000000ull, 0xffffffffffffffffull, 0x123456789abcdefull, 0x8000000000000000ull };
    int i, j;
    for (i = 0; i < 8; i++)
        for (j = i; j < 8; j++)
            printf("%llx * %llx = %llx:%llx\n", v[i], v[j], mulhi(v[i], v[j]), v[i] * v[j]);
    {
        long long a = -123456789012LL, b = 98765;
        printf("%lld %lld %lld\n", a * b, a / b, a % b);
        printf("%lld\n", a * -b);
    }
    return 0;
}
