#include <stdio.h>

static long double ld_add(long double a, long double b) { return a + b; }
static long double ld_mul(long double a, long double b) { return a * b; }
static long double ld_div(long double a, long double b) { return a / b; }

int main(void) {
    long double a = 1.0L / 3.0L;
    long double b = 2.5L;
    long double big = 1e4000L;
    int i;
    printf("%d\n", (int)sizeof(long double));
    printf("%.20Lf\n", a);
    printf("%.5Lf %.5Lf %.5Lf\n", ld_add(a, b), ld_mul(a, b), ld_div(b, a));
    printf("%Lg\n", big);
    printf("%Lg\n", big * big / big);
    {
        long double x = 1.0L;
        int n = 0;
        while (x + 1.0L != x) { x *= 2; n++; }
        printf("long double 2^%d\n", n);
    }
    {
        long double v[] = { 0.5L, -1.25L, 1e20L, 18446744073709551615.0L };
        for (i = 0; i < 4; i++)
            printf("%.3Lf %lld %.17g\n", v[i], (long long)(v[i] / 1e10L), (double)v[i]);
        printf("%llu\n", (unsigned long long)v[3]);
    }
    printf("%d %d\n", a < b, a == (long double)(1.0 / 3.0));
    {
        long long n = 9007199254740993LL;
        long double ld = n;
        printf("%.1Lf\n", ld);
    }
    return 0;
}
