#include <stdio.h>

static volatile double src[] = { 2.5, 3.5, -2.5, -3.5, 0.49999999999999994, 1e-300, -1e-300, 2.9999999, -2.9999999 };

int main(void) {
    int i;
    for (i = 0; i < 9; i++) {
        double d = src[i];
        printf("%.17g: %d %ld %d %d\n", d, (int)d, (long)d, (short)d, (signed char)d);
    }
    {
        int n = 16777217;
        float f = n;
        printf("%.1f %d\n", f, (int)f);
        long l = 9007199254740993L;
        double d = l;
        printf("%.1f %ld\n", d, (long)d);
    }
    {
        unsigned u = 4294967295u;
        float f = u;
        double d = u;
        printf("%.1f %.1f\n", f, d);
    }
    return 0;
}
