#include <stdio.h>

static unsigned v32[] = { 1, 2, 3, 0x80, 0x8000, 0x10000, 0x7fffffff, 0x80000000u, 0xffffffffu, 0x00f00000 };
static unsigned long long v64[] = { 1, 0x100000000ull, 0x8000000000000000ull, 0xffffffffffffffffull, 0x0000010000000000ull, 12345 };

int main(void) {
    int i;
    for (i = 0; i < 10; i++)
        printf("%08x clz=%d ctz=%d\n", v32[i], __builtin_clz(v32[i]), __builtin_ctz(v32[i]));
    for (i = 0; i < 6; i++)
        printf("%016llx clzll=%d ctzll=%d clzl=%d ctzl=%d\n", v64[i], __builtin_clzll(v64[i]), __builtin_ctzll(v64[i]),
               __builtin_clzl((unsigned long)v64[i]), __builtin_ctzl((unsigned long)v64[i]));
    printf("%d %d\n", __builtin_clz(1), __builtin_ctz(0x80000000u));
    return 0;
}
