#include <stdio.h>

static unsigned mix(unsigned a, unsigned b, unsigned c, unsigned d, unsigned e, unsigned f, unsigned g, unsigned h) {
    unsigned i;
    for (i = 0; i < 64; i++) {
        a += b ^ (c << 3); b += c ^ (d >> 2); c += d ^ (e << 1); d += e ^ (f >> 3);
        e += f ^ (g << 2); f += g ^ (h >> 1); g += h ^ (a << 4); h += a ^ (b >> 4);
        a ^= h * 3; c ^= f * 5; e ^= d * 7; g ^= b * 9;
    }
    return a ^ b ^ c ^ d ^ e ^ f ^ g ^ h;
}

static long many_live(long x) {
    long a = x + 1, b = x * 2, c = x - 3, d = x ^ 5, e = x | 6, f = x & 7, g = x * 4, h = x >> 1;
    long i = a * b, j = c * d, k = e * f, l = g * h, m = a + h, n = b + g, o = c + f, p = d + e;
    return a + b + c + d + e + f + g + h + i - j + k - l + m * n - o * p;
}

int main(void) {
    printf("%u\n", mix(1, 2, 3, 4, 5, 6, 7, 8));
    printf("%u\n", mix(0xdeadbeef, 0, 0, 0, 0, 0, 0, 1));
    printf("%ld %ld\n", many_live(10), many_live(-1000));
    return 0;
}
