// fabs, fabsf and fabsl are expanded inline as gcc does (no `// link: -lm` here: a call
// to the library function would not link), also through a declaration of one's own.
#include <math.h>
#include <stdio.h>

extern float fabsf(float);

int main(void) {
    volatile double d = -2.5, z = -0.0;
    volatile float f = -1.25f;
    volatile long double l = -3.75L;
    printf("%g %g %g\n", fabs(d), fabs(-d), fabs(z));
    printf("%g %g\n", (double)fabsf(f), (double)fabsf(0.5f));
    printf("%Lg %Lg\n", fabsl(l), fabsl(-l));
    printf("%d\n", signbit(fabs(z)) != 0);
    /* A negative NaN loses its sign too. */
    volatile double nan_neg = -__builtin_nan("");
    volatile float nanf_neg = -__builtin_nanf("");
    volatile long double nanl_neg = -__builtin_nanl("");
    printf("%d %d %d %d\n", signbit(nan_neg) != 0, signbit(fabs(nan_neg)) != 0,
           signbit(fabsf(nanf_neg)) != 0, signbit(fabsl(nanl_neg)) != 0);
    return 0;
}
