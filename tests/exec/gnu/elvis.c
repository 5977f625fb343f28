#include <stdio.h>

static int calls;
static int f(int v) { calls++; return v; }
static const char *nz(const char *s) { return s ?: "(null)"; }

int main(void) {
    int a = f(5) ?: 10;
    int b = f(0) ?: 10;
    printf("%d %d %d\n", a, b, calls);
    printf("%s %s\n", nz("x"), nz(0));
    {
        long l = 0;
        double dd = 0.0;
        printf("%ld %g\n", l ?: -1L, dd ?: 2.5);
    }
    return 0;
}
