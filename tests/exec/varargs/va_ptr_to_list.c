#include <stdio.h>
#include <stdarg.h>

static long next_long(va_list *ap) { return va_arg(*ap, long); }
static double next_double(va_list *ap) { return va_arg(*ap, double); }

static void parse(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    for (; *fmt; fmt++) {
        if (*fmt == 'l') printf("l=%ld ", next_long(&ap));
        else printf("d=%g ", next_double(&ap));
    }
    va_end(ap);
    printf("\n");
}

int main(void) {
    parse("ldld", 1L, 1.5, -2L, 2.5);
    parse("llllllllldddddddddd", 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0);
    return 0;
}
