/* tgmath.h: C17 7.25, type-generic math, for hosted targets. Part of neverc.
 *
 * neverc provides its own because the C library's is written for one compiler's
 * extensions (glibc's needs GCC 8's __builtin_tgmath or GCC's __float128 rules). This one
 * is plain C11: _Generic picks the function by the argument types.
 *
 * The rule (7.25p3): a long double argument selects the `l` function; else a double or an
 * integer argument selects the double one; else float. A complex argument selects the
 * complex function. __neverc_tg(x) maps an argument to a zero of the type it stands for,
 * so the usual arithmetic conversions of a sum of them give the type for several. */
#ifndef __NEVERC_TGMATH_H
#define __NEVERC_TGMATH_H

#include <math.h>
#include <complex.h>

#define __neverc_tg(x) _Generic((x),                                          \
    float: (float)0, long double: (long double)0,                             \
    float _Complex: (float _Complex)0, double _Complex: (double _Complex)0,   \
    long double _Complex: (long double _Complex)0, default: (double)0)

/* Real-only functions of one, two and three arguments. */
#define __neverc_tg_r1(__fn, x) _Generic(__neverc_tg(x),                      \
    float: __fn##f, long double: __fn##l, default: __fn)(x)
#define __neverc_tg_r2(__fn, x, y) _Generic(__neverc_tg(x) + __neverc_tg(y),  \
    float: __fn##f, long double: __fn##l, default: __fn)(x, y)
#define __neverc_tg_r3(__fn, x, y, z)                                         \
    _Generic(__neverc_tg(x) + __neverc_tg(y) + __neverc_tg(z),                \
    float: __fn##f, long double: __fn##l, default: __fn)(x, y, z)
/* Functions whose second argument is not generic (ldexp's int, frexp's int *). */
#define __neverc_tg_r1x(__fn, x, e) _Generic(__neverc_tg(x),                  \
    float: __fn##f, long double: __fn##l, default: __fn)(x, e)
/* Real and complex. */
#define __neverc_tg_c1(__fn, x) _Generic(__neverc_tg(x),                      \
    float: __fn##f, long double: __fn##l, double: __fn,                       \
    float _Complex: c##__fn##f, long double _Complex: c##__fn##l,             \
    double _Complex: c##__fn)(x)
#define __neverc_tg_c2(__fn, x, y) _Generic(__neverc_tg(x) + __neverc_tg(y),  \
    float: __fn##f, long double: __fn##l, double: __fn,                       \
    float _Complex: c##__fn##f, long double _Complex: c##__fn##l,             \
    double _Complex: c##__fn)(x, y)
/* Complex only (real arguments are taken as complex). */
#define __neverc_tg_z1(__fn, x) _Generic(__neverc_tg(x),                      \
    float: __fn##f, float _Complex: __fn##f, long double: __fn##l,            \
    long double _Complex: __fn##l, default: __fn)(x)

#define acos(x) __neverc_tg_c1(acos, x)
#define asin(x) __neverc_tg_c1(asin, x)
#define atan(x) __neverc_tg_c1(atan, x)
#define acosh(x) __neverc_tg_c1(acosh, x)
#define asinh(x) __neverc_tg_c1(asinh, x)
#define atanh(x) __neverc_tg_c1(atanh, x)
#define cos(x) __neverc_tg_c1(cos, x)
#define sin(x) __neverc_tg_c1(sin, x)
#define tan(x) __neverc_tg_c1(tan, x)
#define cosh(x) __neverc_tg_c1(cosh, x)
#define sinh(x) __neverc_tg_c1(sinh, x)
#define tanh(x) __neverc_tg_c1(tanh, x)
#define exp(x) __neverc_tg_c1(exp, x)
#define log(x) __neverc_tg_c1(log, x)
#define pow(x, y) __neverc_tg_c2(pow, x, y)
#define sqrt(x) __neverc_tg_c1(sqrt, x)
/* fabs of a complex value is cabs. */
#define fabs(x) _Generic(__neverc_tg(x),                                      \
    float: fabsf, long double: fabsl, double: fabs,                           \
    float _Complex: cabsf, long double _Complex: cabsl,                       \
    double _Complex: cabs)(x)

#define atan2(x, y) __neverc_tg_r2(atan2, x, y)
#define cbrt(x) __neverc_tg_r1(cbrt, x)
#define ceil(x) __neverc_tg_r1(ceil, x)
#define copysign(x, y) __neverc_tg_r2(copysign, x, y)
#define erf(x) __neverc_tg_r1(erf, x)
#define erfc(x) __neverc_tg_r1(erfc, x)
#define exp2(x) __neverc_tg_r1(exp2, x)
#define expm1(x) __neverc_tg_r1(expm1, x)
#define fdim(x, y) __neverc_tg_r2(fdim, x, y)
#define floor(x) __neverc_tg_r1(floor, x)
#define fma(x, y, z) __neverc_tg_r3(fma, x, y, z)
#define fmax(x, y) __neverc_tg_r2(fmax, x, y)
#define fmin(x, y) __neverc_tg_r2(fmin, x, y)
#define fmod(x, y) __neverc_tg_r2(fmod, x, y)
#define frexp(x, e) __neverc_tg_r1x(frexp, x, e)
#define hypot(x, y) __neverc_tg_r2(hypot, x, y)
#define ilogb(x) __neverc_tg_r1(ilogb, x)
#define ldexp(x, e) __neverc_tg_r1x(ldexp, x, e)
#define lgamma(x) __neverc_tg_r1(lgamma, x)
#define llrint(x) __neverc_tg_r1(llrint, x)
#define llround(x) __neverc_tg_r1(llround, x)
#define log10(x) __neverc_tg_r1(log10, x)
#define log1p(x) __neverc_tg_r1(log1p, x)
#define log2(x) __neverc_tg_r1(log2, x)
#define logb(x) __neverc_tg_r1(logb, x)
#define lrint(x) __neverc_tg_r1(lrint, x)
#define lround(x) __neverc_tg_r1(lround, x)
#define nearbyint(x) __neverc_tg_r1(nearbyint, x)
#define nextafter(x, y) __neverc_tg_r2(nextafter, x, y)
#define nexttoward(x, y) __neverc_tg_r1x(nexttoward, x, y)
#define remainder(x, y) __neverc_tg_r2(remainder, x, y)
#define remquo(x, y, q) _Generic(__neverc_tg(x) + __neverc_tg(y),             \
    float: remquof, long double: remquol, default: remquo)(x, y, q)
#define rint(x) __neverc_tg_r1(rint, x)
#define round(x) __neverc_tg_r1(round, x)
#define scalbn(x, n) __neverc_tg_r1x(scalbn, x, n)
#define scalbln(x, n) __neverc_tg_r1x(scalbln, x, n)
#define tgamma(x) __neverc_tg_r1(tgamma, x)
#define trunc(x) __neverc_tg_r1(trunc, x)

#define carg(x) __neverc_tg_z1(carg, x)
#define cimag(x) __neverc_tg_z1(cimag, x)
#define conj(x) __neverc_tg_z1(conj, x)
#define cproj(x) __neverc_tg_z1(cproj, x)
#define creal(x) __neverc_tg_z1(creal, x)

#endif
