#include <stdio.h>

static int sq(int x) { return x * x; }
static double half(double x) { return x / 2; }
static long combine(int a, double b, int c, double d, int e, double f, int g, int h) {
    return a * 1000000L + (long)(b * 100) + c * 10000L + (long)d + e + (long)f + g + h;
}

int main(void) {
    int i;
    for (i = 1; i <= 3; i++)
        printf("%ld\n", combine(sq(i), half(sq(i + 1)), sq(sq(i)), half(half(i * 8.0)), sq(i) - 1, half(i), sq(2) + i, -sq(i)));
    printf("%d\n", sq(sq(sq(2))));
    return 0;
}
