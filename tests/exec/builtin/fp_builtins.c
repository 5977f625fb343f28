#include <stdio.h>

int main(void) {
    double vals[] = { 1.0, -0.0, 0.0, 3.5 };
    int i;
    double inf = __builtin_inf();
    double nan = __builtin_nan("");
    printf("%d %d %d\n", __builtin_isnan(nan), __builtin_isnan(1.0), __builtin_isinf(inf));
    printf("%d %d\n", __builtin_isinf(-inf) != 0, __builtin_isfinite(1e308));
    for (i = 0; i < 4; i++) printf("%d ", __builtin_signbit(vals[i]) != 0);
    printf("\n%g %g\n", __builtin_copysign(2.0, -0.0), __builtin_huge_val());
    printf("%g %g\n", __builtin_fabsf(-1.5f), __builtin_fabsl(-2.5L) > 2 ? 2.5 : 0.0);
    printf("%g %g\n", __builtin_fabs(-2.5), __builtin_inf() > 1e308 ? 1.0 : 0.0);
    printf("%d %ld\n", __builtin_abs(-7), __builtin_labs(-8L));
    return 0;
}
