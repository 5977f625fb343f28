#include <stdio.h>

static float fsum4(float a, float b, float c, float d) { return a + b + c + d; }
static double mix(float a, double b, float c, double d) { return a * b - c * d; }
static float fret(int i) { return i * 0.5f; }
static double dret(long l) { return l / 4.0; }
static float ident(float x) { return x; }

int main(void) {
    float f = 1.25f;
    double d = 2.5;
    int i;
    printf("%g\n", fsum4(1.5f, 2.25f, -0.75f, 100));
    printf("%g\n", mix(f, d, 3.0f, 0.5));
    for (i = -2; i <= 2; i++)
        printf("%g %g\n", fret(i), dret(i * 3));
    printf("%g\n", ident(f) + ident(2.0f));
    /* float passed through an unprototyped-style variadic call promotes to double */
    printf("%f %f\n", f, (float)d);
    {
        float arr[5];
        for (i = 0; i < 5; i++)
            arr[i] = fret(i) * ident(3.0f);
        for (i = 0; i < 5; i++)
            printf("%g ", arr[i]);
        printf("\n");
    }
    return 0;
}
