#include <stdio.h>
#include <math.h>

static double zero = 0.0;

int main(void) {
    double inf = 1.0 / zero;
    double ninf = -1.0 / zero;
    double nan = zero / zero;
    double vals[5];
    int i, j;
    vals[0] = nan; vals[1] = inf; vals[2] = ninf; vals[3] = 1.0; vals[4] = -0.0;
    for (i = 0; i < 5; i++)
        for (j = 0; j < 5; j++) {
            double a = vals[i], b = vals[j];
            printf("%d%d: < %d <= %d > %d >= %d == %d != %d !< %d\n", i, j, a < b, a <= b, a > b, a >= b,
                   a == b, a != b, !(a < b));
        }
    printf("%d %d\n", nan == nan, nan != nan);
    printf("%d %d\n", isnan(nan), isinf(ninf));
    printf("%g %g\n", inf, ninf);
    printf("%d\n", inf + ninf != inf + ninf);
    printf("%g %g\n", inf * 0.5, 1.0 / inf);
    if (nan) printf("nan is true\n");
    if (!nan) printf("!nan is true\n");
    printf("%d\n", nan ? 1 : 2);
    {
        float fn = (float)nan, fi = (float)inf;
        printf("%d %d %d\n", fn == fn, fi > 1e38f, fn < fi);
    }
    return 0;
}
