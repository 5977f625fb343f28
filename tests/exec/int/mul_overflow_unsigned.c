#include <stdio.h>

int main(void) {
    unsigned a = 0xffffffffu, b = 0x80000001u;
    unsigned long long x = 0xffffffffffffffffull, y = 3;
    unsigned short p = 0xffff;
    printf("%u %u %u\n", a * a, a * b, b * b);
    printf("%llu %llu\n", x * y, x * x);
    printf("%d\n", p * 2);
    printf("%u\n", (unsigned)p * p);
    {
        unsigned h = 0;
        int i;
        for (i = 0; i < 100; i++) h = h * 2654435761u + i;
        printf("%u\n", h);
    }
    return 0;
}
