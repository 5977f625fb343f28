#include <stdio.h>
#include <string.h>

static void bits(double d) {
    unsigned long long u;
    memcpy(&u, &d, 8);
    printf("%016llx\n", u);
}

static double negate(double x) { return -x; }
static double sub0(double x) { return 0.0 - x; }
static float fneg(float x) { return -x; }

int main(void) {
    double z = 0.0, nz = -0.0;
    float fz = 0.0f;
    bits(z);
    bits(nz);
    bits(negate(z));
    bits(sub0(z));
    bits(z * -1.0);
    bits(nz + nz);
    bits(nz + z);
    bits(nz - z);
    printf("%d %d\n", z == nz, z < nz);
    printf("%g %g\n", nz, 1.0 / nz);
    {
        float f = fneg(fz);
        unsigned u;
        memcpy(&u, &f, 4);
        printf("%08x %g\n", u, 1.0f / f);
    }
    {
        double x = -1e-320;
        printf("%g %d\n", x * 1e-10, x * 1e-10 == 0);
    }
    return 0;
}
