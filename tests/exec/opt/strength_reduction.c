#include <stdio.h>

static volatile int src[] = { -9, -8, -1, 0, 1, 7, 8, 9, 1000, -1000, 2147483647, -2147483647 };

int main(void) {
    int i;
    for (i = 0; i < 12; i++) {
        int x = src[i];
        long lx = x;
        printf("%d: %d %d %d %d %ld %ld %u\n", x, x / 2, x / 4, x % 2, x % 16, lx * 9, lx * -3, (unsigned)x / 8);
    }
    {
        unsigned u;
        unsigned long acc = 0;
        for (u = 0; u < 1000; u += 3) acc += u * 5 + (u >> 2) + u % 8;
        printf("%lu\n", acc);
    }
    return 0;
}
