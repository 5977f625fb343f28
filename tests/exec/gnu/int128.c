#include <stdio.h>

typedef unsigned __int128 u128;
typedef __int128 i128;

static void pu(const char *tag, u128 v) {
    printf("%s %016llx%016llx\n", tag, (unsigned long long)(v >> 64), (unsigned long long)v);
}

static void pdec(u128 v) {
    char buf[64];
    int i = 63;
    buf[i] = 0;
    do { buf[--i] = '0' + (int)(v % 10); v /= 10; } while (v);
    printf("%s\n", buf + i);
}

static u128 mul(u128 a, u128 b) { return a * b; }
static i128 neg(i128 a) { return -a; }

int main(void) {
    u128 a = ((u128)0x0123456789abcdefULL << 64) | 0xfedcba9876543210ULL;
    u128 b = 0xffffffffffffffffULL;
    i128 s = -12345678901234567LL;
    pu("a", a);
    pu("b+1", b + 1);
    pu("a*b", mul(a, b));
    pu("a/7", a / 7);
    pu("a%1000003", a % 1000003);
    pu("a/b", a / b);
    pu("a%b", a % b);
    pu("a>>3", a >> 3);
    pu("a<<67", a << 67);
    pu("~a", ~a);
    pu("s*s", (u128)(s * s));
    pu("-s", (u128)neg(s));
    pu("s/3", (u128)(s / 3));
    pdec((u128)1 << 127);
    pdec(mul(b, b));
    printf("%d %d %d\n", a > b, s < 0, (i128)a > (i128)b);
    printf("%d %d\n", (int)sizeof(u128), (int)_Alignof(u128));
    printf("%.17g %.17g\n", (double)a, (double)s);
    return 0;
}
