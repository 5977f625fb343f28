/* A small variadic function is not inlined (its va_list belongs to its own frame);
   a non-variadic wrapper around vsnprintf-like code is. */
#include <stdarg.h>
#include <stdio.h>

static int sum(int n, ...) {
    va_list ap;
    va_start(ap, n);
    int s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, int);
    va_end(ap);
    return s;
}

static double avg(int n, ...) {
    va_list ap;
    va_start(ap, n);
    double s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, double);
    va_end(ap);
    return n ? s / n : 0;
}

static int sum3(int a, int b, int c) { return sum(3, a, b, c); }

int main(void) {
    printf("%d %d %d\n", sum(0), sum(2, 5, 6), sum3(1, 2, 3));
    printf("%.2f %.2f\n", avg(3, 1.0, 2.0, 4.5), avg(0));
    int t = 0;
    for (int i = 0; i < 10; i++)
        t += sum(i % 4, i, i + 1, i + 2);
    printf("%d\n", t);
    return 0;
}
