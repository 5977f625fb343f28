#include <stdio.h>

static float f_add(float a, float b) { return a + b; }
static double d_from_f(float a) { return a; }
static float f_from_d(double a) { return (float)a; }
static long double ld_from_d(double a) { return a; }
static double d_from_ld(long double a) { return (double)a; }
static float f_from_int(int i) { return (float)i; }
static int int_from_f(float f) { return (int)f; }

int main(void) {
    printf("%.9g\n", f_add(0.1f, 0.2f));
    printf("%.17g\n", d_from_f(0.1f));
    printf("%.9g\n", f_from_d(0.1));
    printf("%.17g\n", d_from_ld(ld_from_d(0.1) * 3));
    printf("%.9g %d\n", f_from_int(16777217), int_from_f(-3.99f));
    printf("%.9g\n", f_add(f_from_d(1e38), f_from_d(3e38)));
    return 0;
}
