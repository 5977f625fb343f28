#include <stdio.h>

static unsigned long long vals[] = { 0, 1, 3, 0xff, 0xffffffffull, 0x8000000000000001ull, 0xffffffffffffffffull, 0x5555555555555555ull, 0x123456789abcdefull };

int main(void) {
    int i;
    for (i = 0; i < 9; i++) {
        unsigned long long v = vals[i];
        printf("%llx: %d %d %d %d %d\n", v, __builtin_popcount((unsigned)v), __builtin_popcountll(v),
               __builtin_parity((unsigned)v), __builtin_parityll(v), __builtin_popcountl((unsigned long)v));
    }
    for (i = 0; i < 9; i++)
        printf("ffs %d %d\n", __builtin_ffs((int)vals[i]), __builtin_ffsll((long long)vals[i]));
    return 0;
}
