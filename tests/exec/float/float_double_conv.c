#include <stdio.h>

static double dv[] = { 0.1, 1.0 / 3.0, 16777217.0, 3.4028234663852886e38, 1e-40, -2.75, 1e300, 123456789.0 };

int main(void) {
    int i;
    for (i = 0; i < 8; i++) {
        float f = (float)dv[i];
        double back = f;
        printf("%.17g -> %.9g -> %.17g\n", dv[i], f, back);
    }
    {
        float a = 0.1f, b = 0.2f;
        double c = a + b;
        double d = (double)a + (double)b;
        printf("%.17g %.17g %d\n", c, d, c == d);
        printf("%.17g\n", (double)(a * 3));
        printf("%.9g\n", (float)(1.0 / 3.0));
    }
    {
        float f = 1.0f;
        int n = 0;
        while (f + 1.0f != f) { f *= 2; n++; }
        printf("float 2^%d\n", n);
    }
    {
        double d = 1.0;
        int n = 0;
        while (d + 1.0 != d) { d *= 2; n++; }
        printf("double 2^%d\n", n);
    }
    return 0;
}
