#include <stdio.h>
#include <stdarg.h>

static int sum(int n, ...) {
    va_list ap;
    int s = 0, i;
    va_start(ap, n);
    for (i = 0; i < n; i++) s += va_arg(ap, int);
    va_end(ap);
    return s;
}

static long sum_until_zero(long first, ...) {
    va_list ap;
    long s = first, v;
    va_start(ap, first);
    while ((v = va_arg(ap, long)) != 0) s += v;
    va_end(ap);
    return s;
}

int main(void) {
    printf("%d\n", sum(0));
    printf("%d\n", sum(1, 42));
    printf("%d\n", sum(5, 1, 2, 3, 4, 5));
    printf("%d\n", sum(12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
    printf("%d\n", sum(3, (char)-1, (short)-2, (unsigned char)200));
    printf("%ld\n", sum_until_zero(1L, 2L, 3L, 1L << 40, -5L, 0L));
    return 0;
}
