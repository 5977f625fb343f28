#include <stdio.h>
#include <stdarg.h>

static int count_and_max(int n, ...) {
    va_list ap, again;
    int i, max = -1, pos = -1;
    va_start(ap, n);
    va_copy(again, ap);
    for (i = 0; i < n; i++) { int v = va_arg(ap, int); if (v > max) max = v; }
    for (i = 0; i < n; i++) { int v = va_arg(again, int); if (v == max) { pos = i; break; } }
    va_end(again);
    va_end(ap);
    return max * 100 + pos;
}

static double take_list(int n, va_list ap) {
    double s = 0;
    while (n--) s += va_arg(ap, double);
    return s;
}

static double outer(int n, ...) {
    va_list ap;
    double r;
    va_start(ap, n);
    r = take_list(n, ap);
    va_end(ap);
    return r;
}

static void twice(const char *tag, ...) {
    va_list ap;
    int pass;
    for (pass = 0; pass < 2; pass++) {
        const char *s;
        va_start(ap, tag);
        printf("%s%d:", tag, pass);
        while ((s = va_arg(ap, const char *)) != NULL) printf(" %s", s);
        printf("\n");
        va_end(ap);
    }
}

int main(void) {
    printf("%d\n", count_and_max(9, 3, 8, 1, 8, 2, 9, 4, 9, 0));
    printf("%g\n", outer(11, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0));
    twice("t", "a", "bb", "ccc", "d", "e", "f", "g", (char *)NULL);
    return 0;
}
