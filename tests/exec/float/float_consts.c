#include <stdio.h>
#include <float.h>

int main(void) {
    printf("%.17g\n", DBL_MAX);
    printf("%.17g\n", DBL_MIN);
    printf("%.17g\n", DBL_EPSILON);
    printf("%.9g\n", FLT_MAX);
    printf("%.9g\n", FLT_MIN);
    printf("%.9g\n", FLT_EPSILON);
    printf("%d %d %d\n", DBL_MANT_DIG, FLT_MANT_DIG, LDBL_MANT_DIG);
    printf("%g %g %g\n", 1e-5, 1.5e+3, .5);
    printf("%g %g\n", 0x1p4, 0x1.8p-1);
    printf("%.20g\n", 0.1);
    printf("%.9g\n", 0.1f);
    printf("%g\n", 5e-324);
    printf("%g\n", 1.7976931348623157e308 * 1);
    printf("%.17g\n", 4.9406564584124654e-324 * 4);
    printf("%g\n", 3.f);
    return 0;
}
