#include <stdio.h>

static double dabs(double x) { return x < 0 ? -x : x; }
static float fabsf_(float x) { return x < 0 ? -x : x; }
static double dmin(double a, double b) { return a < b ? a : b; }
static double clamp(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

int main(void) {
    double vals[] = { -3.5, 0, 2.25, -0.001, 1e300, -1e-300 };
    int i;
    for (i = 0; i < 6; i++)
        printf("%g %g %g %g\n", dabs(vals[i]), (double)fabsf_((float)vals[i]), dmin(vals[i], 1), clamp(vals[i], -1, 1));
    return 0;
}
