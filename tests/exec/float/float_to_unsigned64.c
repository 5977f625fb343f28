#include <stdio.h>

static unsigned long long d2u(double d) { return (unsigned long long)d; }
static unsigned long long f2u(float f) { return (unsigned long long)f; }
static double u2d(unsigned long long u) { return (double)u; }
static float u2f(unsigned long long u) { return (float)u; }

int main(void) {
    double ds[] = { 0.0, 1.0, 9223372036854775807.0, 9223372036854775808.0, 9223372036854777856.0,
                    12345678901234567890.0, 18446744073709549568.0, 4294967296.5 };
    unsigned long long us[] = { 0, 1, 0x7fffffffffffffffull, 0x8000000000000000ull, 0x8000000000000001ull,
                                0xfffffffffffff800ull, 0xffffffffffffffffull, 0x8000000000000400ull,
                                0x8000000000000c00ull, 0x20000000000001ull, 0x20000000000003ull };
    int i;
    for (i = 0; i < 8; i++)
        printf("%.1f -> %llu %llu\n", ds[i], d2u(ds[i]), f2u((float)ds[i] / 2));
    for (i = 0; i < 11; i++)
        printf("%llu -> %.1f %.1f\n", us[i], u2d(us[i]), (double)u2f(us[i]));
    return 0;
}
