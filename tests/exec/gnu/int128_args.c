#include <stdio.h>
#include <stdarg.h>

typedef __int128 i128;
typedef unsigned __int128 u128;

static void show(const char *tag, u128 v) { printf("%s %016llx%016llx\n", tag, (unsigned long long)(v >> 64), (unsigned long long)v); }

/* 128-bit arguments take register pairs, or go to the stack when no pair is left */
static u128 sum(int a, u128 b, int c, u128 d, u128 e, u128 f) { return a + b + c + d + e + f; }
static i128 ret(long hi, unsigned long lo) { return (i128)(((u128)hi << 64) | lo); }
static u128 var128(int n, ...) {
    va_list ap;
    u128 s = 0;
    va_start(ap, n);
    while (n--) s = s * 3 + va_arg(ap, u128);
    va_end(ap);
    return s;
}
struct holder { char c; i128 v; };
static struct holder pass(struct holder h) { h.v = -h.v; h.c++; return h; }

int main(void) {
    u128 big = ((u128)1 << 100) + 12345;
    struct holder h = { 'a', 0 };
    show("sum", sum(1, big, 2, big << 1, (u128)-1, 7));
    show("ret", (u128)ret(-2, 5));
    show("var", var128(4, big, (u128)1, (u128)2 << 70, big));
    h.v = ret(0x1234, 0x5678);
    h = pass(h);
    show("pass", (u128)h.v);
    printf("%c %d %d\n", h.c, (int)sizeof h, (int)__builtin_offsetof(struct holder, v));
    printf("%d\n", ret(-1, 0) < 0);
    return 0;
}
