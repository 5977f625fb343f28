#include <stdio.h>

/* __int128 operations one by one: constant shifts at every edge, variable shifts, the
   ten comparisons on values that differ in either half, selects, conversions to and
   from narrower integers and from double (folded and at run time), and values carried
   around a loop. */

typedef unsigned __int128 u128;
typedef __int128 i128;

static void pu(const char *tag, u128 v) {
    printf("%s %016llx%016llx\n", tag, (unsigned long long)(v >> 64), (unsigned long long)v);
}

__attribute__((noinline)) static u128 shl(u128 a, int n) { return a << n; }
__attribute__((noinline)) static u128 shr(u128 a, int n) { return a >> n; }
__attribute__((noinline)) static i128 sar(i128 a, int n) { return a >> n; }
__attribute__((noinline)) static i128 pick(int c, i128 a, i128 b) { return c ? a : b; }
__attribute__((noinline)) static i128 fix(double d) { return (i128)d; }
__attribute__((noinline)) static u128 ufix(double d) { return (u128)d; }
__attribute__((noinline)) static double flt(i128 v) { return (double)v; }

static void compare(i128 a, i128 b) {
    u128 ua = a, ub = b;
    printf("%d%d%d%d%d%d %d%d%d%d\n", a == b, a != b, a < b, a <= b, a > b, a >= b,
           ua < ub, ua <= ub, ua > ub, ua >= ub);
}

int main(void) {
    u128 a = ((u128)0x8123456789abcdefULL << 64) | 0xfedcba9876543210ULL;
    i128 s = (i128)a;
    pu("shl0", a << 0); pu("shl1", a << 1); pu("shl63", a << 63); pu("shl64", a << 64);
    pu("shl65", a << 65); pu("shl127", a << 127);
    pu("shr1", a >> 1); pu("shr63", a >> 63); pu("shr64", a >> 64); pu("shr100", a >> 100);
    pu("sar1", (u128)(s >> 1)); pu("sar64", (u128)(s >> 64)); pu("sar127", (u128)(s >> 127));
    for (int n = 0; n < 128; n += 21) {
        printf("%3d ", n);
        pu("v", shl(a, n) ^ shr(a, n) ^ (u128)sar(s, n));
    }
    i128 one = 1, big = (i128)1 << 64, m = -1;
    compare(one, one); compare(one, big); compare(big, one); compare(m, one);
    compare(one, m); compare(big + 1, big + 2); compare(-big, big);
    pu("pick1", (u128)pick(1, s, one)); pu("pick0", (u128)pick(0, s, one));
    signed char c = -3; unsigned short h = 65535; int i = -70000; unsigned u = 4000000000u;
    long long l = -1;
    pu("sc", (u128)(i128)c); pu("us", (u128)(i128)h); pu("int", (u128)(i128)i);
    pu("uns", (u128)(i128)u); pu("ll", (u128)(i128)l); pu("ull", (u128)(u128)(unsigned long long)l);
    printf("%d %lld\n", (int)(signed char)a, (long long)a);
    pu("fold1", (u128)3.5e37); pu("fold2", (u128)(i128)-1e30); pu("fold3", (u128)1e19);
    pu("run1", ufix(3.5e37)); pu("run2", (u128)fix(-1e30)); pu("run3", ufix(1e19));
    printf("%.17g %.17g\n", flt(s), flt(big - 1));
    u128 acc = 0, x = 1;
    for (int k = 0; k < 90; k++) { acc += x; x = x * 3 + (acc >> 7); }
    pu("acc", acc); pu("x", x);
    if (big) puts("big is true");
    if (!(big - big)) puts("zero is false");
    return 0;
}
