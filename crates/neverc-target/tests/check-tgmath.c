/* Compiled by tests/tgmath.rs with neverc's <tgmath.h> in front of the C library's headers:
 * each call must select the function of the type C17 7.25 gives. */
#include <tgmath.h>
#define IS(e, T) _Static_assert(_Generic((e), T: 1, default: 0), #e " is " #T)
float f; double d; long double ld; int i; float _Complex fc; double _Complex dc; long double _Complex ldc; int e;
void t(void) {
  IS(sqrt(f), float); IS(sqrt(d), double); IS(sqrt(ld), long double); IS(sqrt(i), double);
  IS(sqrt(fc), float _Complex); IS(sqrt(dc), double _Complex); IS(sqrt(ldc), long double _Complex);
  IS(pow(f, f), float); IS(pow(f, i), double); IS(pow(f, ld), long double); IS(pow(fc, d), double _Complex);
  IS(fabs(fc), float); IS(fabs(ldc), long double); IS(fabs(i), double);
  IS(atan2(f, f), float); IS(atan2(i, f), double); IS(fma(f, f, ld), long double);
  IS(ldexp(f, 3), float); IS(frexp(ld, &e), long double); IS(ilogb(f), int); IS(lround(ld), long);
  IS(creal(f), float); IS(creal(dc), double); IS(cimag(ldc), long double); IS(conj(f), float _Complex); IS(conj(i), double _Complex);
  IS(remquo(f, d, &e), double); IS(nexttoward(f, ld), float); IS(carg(fc), float);
}
