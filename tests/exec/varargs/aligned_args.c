#include <stdarg.h>
#include <stdio.h>

/* va_arg of types whose alignment is 16 or more, after 0 to 9 ints, so that they land
   in every register position and on the stack: __int128 (naturally 16-aligned), records
   made 16- or 32-aligned by an attribute (which AAPCS64 ignores when choosing registers
   and stack slots), and a 32-aligned record of four doubles (an HFA on AArch64). */

struct P { long long a, b; };
struct __attribute__((aligned(16))) A16 { long long a, b; };
struct __attribute__((aligned(32))) V32 { double a, b, c, d; };
struct __attribute__((aligned(16))) M16 { double a; long long b; };

static __int128 get_i128(int n, ...) {
    va_list ap;
    va_start(ap, n);
    while (n--) va_arg(ap, int);
    __int128 r = va_arg(ap, __int128);
    va_end(ap);
    return r;
}

#define GETTER(T, name)                              \
    static struct T name(int n, ...) {               \
        va_list ap;                                  \
        va_start(ap, n);                             \
        while (n--) va_arg(ap, int);                 \
        struct T r = va_arg(ap, struct T);           \
        int tail = va_arg(ap, int);                  \
        va_end(ap);                                  \
        if (tail != 77) printf("bad tail %d\n", tail); \
        return r;                                    \
    }
GETTER(P, get_p)
GETTER(A16, get_a16)
GETTER(V32, get_v32)
GETTER(M16, get_m16)

int main(void) {
    __int128 w = ((__int128)0x0102030405060708LL << 64) | 0x1112131415161718LL;
    struct P p = { 21, 22 };
    struct A16 a = { 31, 32 };
    struct V32 v = { 1.5, 2.5, 3.5, 4.5 };
    struct M16 m = { 6.25, 62 };
#define ALL(F, X) F(0, X), F(1, 0, X), F(2, 0, 0, X), F(3, 0, 0, 0, X), F(4, 0, 0, 0, 0, X), \
    F(5, 0, 0, 0, 0, 0, X), F(6, 0, 0, 0, 0, 0, 0, X), F(7, 0, 0, 0, 0, 0, 0, 0, X),           \
    F(8, 0, 0, 0, 0, 0, 0, 0, 0, X), F(9, 0, 0, 0, 0, 0, 0, 0, 0, 0, X)
    __int128 ws[] = { ALL(get_i128, w) };
    for (int i = 0; i < 10; i++)
        printf("i128 %d: %d\n", i, ws[i] == w);
#define T77(X) X, 77
    struct P ps[] = { ALL(get_p, T77(p)) };
    struct A16 as[] = { ALL(get_a16, T77(a)) };
    struct V32 vs[] = { ALL(get_v32, T77(v)) };
    struct M16 ms[] = { ALL(get_m16, T77(m)) };
    for (int i = 0; i < 10; i++)
        printf("%d: P %lld %lld  A16 %lld %lld  V32 %g %g %g %g  M16 %g %lld\n", i, ps[i].a,
               ps[i].b, as[i].a, as[i].b, vs[i].a, vs[i].b, vs[i].c, vs[i].d, ms[i].a, ms[i].b);
    return 0;
}
