#include <stdio.h>
#include <stdarg.h>

static double avg(int n, ...) {
    va_list ap;
    double s = 0;
    int i;
    va_start(ap, n);
    for (i = 0; i < n; i++) s += va_arg(ap, double);
    va_end(ap);
    return n ? s / n : 0;
}

static double mixed(const char *fmt, ...) {
    va_list ap;
    double s = 0;
    va_start(ap, fmt);
    for (; *fmt; fmt++)
        s += *fmt == 'd' ? va_arg(ap, double) : (double)va_arg(ap, int);
    va_end(ap);
    return s;
}

int main(void) {
    float f = 2.5f;
    printf("%g\n", avg(3, 1.0, 2.0, 4.5));
    printf("%g\n", avg(10, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0));
    printf("%g\n", avg(2, f, (double)f));
    printf("%g\n", mixed("ddiidiiddddddddiiii", 0.5, 1.5, 2, 3, 4.5, 5, 6, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5, 13.5, 14.5, 15, 16, 17, 18));
    return 0;
}
