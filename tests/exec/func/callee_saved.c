#include <stdio.h>

/* many live values across calls: exercises callee-saved registers and spills */
static int __attribute__((noinline)) id(int x) { return x; }
static double __attribute__((noinline)) idd(double x) { return x; }

int main(void) {
    int a = id(1), b = id(2), c = id(3), d = id(4), e = id(5), f = id(6), g = id(7), h = id(8);
    int i = id(9), j = id(10), k = id(11), l = id(12), m = id(13), n = id(14);
    double x = idd(0.5), y = idd(1.5), z = idd(2.5), w = idd(3.5), v = idd(4.5);
    int r = id(a + b) * id(c + d) + id(e * f) - id(g * h) + id(i) * id(j) - id(k + l + m + n);
    double s = idd(x + y) * idd(z) - idd(w / v);
    printf("%d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", a, b, c, d, e, f, g, h, i, j, k, l, m, n);
    printf("%g %g %g %g %g\n", x, y, z, w, v);
    printf("%d %.6f\n", r, s);
    return 0;
}
