#include <stdio.h>

int main(void) {
    int i = 7;
    unsigned u = 3000000000u;
    long l = -5;
    float f = 2.5f;
    double d = 0.1;
    printf("%g %g %g\n", i / 2 + f, i / 2.0, (double)(i / 2));
    printf("%.1f %.1f\n", u * 1.0, u + f);
    printf("%g %g\n", l * d, l / f);
    printf("%d %d %d\n", i > f, l < d, u > 2.9e9);
    printf("%d\n", (int)(f * 4) % 3);
    printf("%g\n", 1 / 3 + 1 / 3.0);
    {
        char c = 'A';
        short s = -300;
        printf("%g %g\n", c * 0.5, s / 4.0f);
    }
    {
        double acc = 0;
        int k;
        for (k = -3; k <= 3; k++) acc += k * 0.25;
        printf("%g\n", acc);
    }
    return 0;
}
