/* Division and remainder by constants (multiplication by the reciprocal and shifts at
   -O1) against division by the same values read through volatile, over edge values of
   every signedness and width. */
#include <stdio.h>
#include <limits.h>

typedef unsigned long ul;
typedef long sl;
typedef unsigned ui;
typedef int si;

#define DIVS(X) X(2) X(3) X(4) X(6) X(7) X(10) X(19) X(25) X(26) X(37) X(125) X(641) \
    X(1024) X(40000) X(65536) X(1000000) X(1000000007) X(2147483647)
#define FN(c)                                                                     \
    ul udl##c(ul x) { return x / (c##UL); } ul url##c(ul x) { return x % (c##UL); } \
    ui udi##c(ui x) { return x / (c##U); } ui uri##c(ui x) { return x % (c##U); }   \
    si sdi##c(si x) { return x / (c); } si sri##c(si x) { return x % (c); }         \
    sl sdl##c(sl x) { return x / (c##L); } sl srl##c(sl x) { return x % (c##L); }
DIVS(FN)
ul big1(ul x) { return x / 0x8000000000000001UL; }
ul big2(ul x) { return x % 0xfffffffffffffffbUL; }
ui big3(ui x) { return x / 0x80000001U; }
ui big4(ui x) { return x % 0xfffffffbU; }
ul big5(ul x) { return x / 0x123456789UL; }
sl neg7(sl x) { return x / -7; }

static int bad;
static ul sum;

static void check(const char *what, int c, ul x, ul got, ul want) {
    sum = sum * 31 + got;
    if (got != want) {
        printf("%s by %d of %#lx: %#lx, want %#lx\n", what, c, x, got, want);
        bad++;
    }
}

int main(void) {
    static const ul vals[] = {0, 1, 2, 3, 5, 7, 9, 10, 25, 26, 27, 99, 100, 101, 255, 256,
        0x7fffffff, 0x80000000, 0x80000001, 0xffffffff, 0x100000000UL,
        0x7fffffffffffffffUL, 0x8000000000000000UL, 0xffffffffffffffffUL,
        0xfffffffffffffffeUL, 12345678901234567UL, (ul)-3, (ul)-7, (ul)-26, (ul)-1000000,
        (ul)-2147483648L, (ul)-2147483647L, (ul)INT_MIN, (ul)LONG_MIN + 1};
    for (unsigned i = 0; i < sizeof vals / sizeof *vals; i++) {
        ul x = vals[i];
#define CK(c)                                                                            \
        { volatile ul vu = c##UL; volatile ui vi = c##U; volatile si ws = c; volatile sl wl = c##L; \
          check("ul /", c, x, udl##c(x), x / vu);                                           \
          check("ul %", c, x, url##c(x), x % vu);                                           \
          check("ui /", c, x, udi##c((ui)x), (ui)x / vi);                                   \
          check("ui %", c, x, uri##c((ui)x), (ui)x % vi);                                   \
          check("si /", c, x, (ui)sdi##c((si)x), (ui)((si)x / ws));                         \
          check("si %", c, x, (ui)sri##c((si)x), (ui)((si)x % ws));                         \
          check("sl /", c, x, (ul)sdl##c((sl)x), (ul)((sl)x / wl));                         \
          check("sl %", c, x, (ul)srl##c((sl)x), (ul)((sl)x % wl)); }
        DIVS(CK)
        volatile ul b1 = 0x8000000000000001UL, b2 = 0xfffffffffffffffbUL, b5 = 0x123456789UL;
        volatile ui b3 = 0x80000001U, b4 = 0xfffffffbU;
        volatile sl n7 = -7;
        check("big1", 0, x, big1(x), x / b1);
        check("big2", 0, x, big2(x), x % b2);
        check("big3", 0, x, big3((ui)x), (ui)x / b3);
        check("big4", 0, x, big4((ui)x), (ui)x % b4);
        check("big5", 0, x, big5(x), x / b5);
        if ((sl)x != LONG_MIN)
            check("neg7", -7, x, (ul)neg7((sl)x), (ul)((sl)x / n7));
    }
    printf("mismatches %d, checksum %lu\n", bad, sum);
    return bad != 0;
}
