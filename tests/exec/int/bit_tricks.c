#include <stdio.h>

static int popcount(unsigned x) { int n = 0; while (x) { x &= x - 1; n++; } return n; }
static unsigned reverse(unsigned x) {
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
    return (x >> 16) | (x << 16);
}
static int is_pow2(unsigned long x) { return x && !(x & (x - 1)); }
static int sign(int x) { return (x > 0) - (x < 0); }
static int iabs(int x) { int m = x >> 31; return (x ^ m) - m; }

int main(void) {
    unsigned v[] = { 0, 1, 2, 3, 0x80000000u, 0xffffffffu, 0x12345678u, 0xf0f0f0f0u };
    int i;
    for (i = 0; i < 8; i++)
        printf("%08x pop=%d rev=%08x low=%08x\n", v[i], popcount(v[i]), reverse(v[i]), v[i] & -v[i]);
    printf("%d %d %d %d\n", is_pow2(0), is_pow2(1), is_pow2(1ul << 63), is_pow2(6));
    printf("%d %d %d\n", sign(-7), sign(0), sign(9));
    printf("%d %d %d\n", iabs(-7), iabs(0), iabs(2147483647));
    {
        int a = 13, b = 29;
        a ^= b; b ^= a; a ^= b;
        printf("%d %d\n", a, b);
    }
    return 0;
}
