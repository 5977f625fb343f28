#include <stdio.h>
#include <limits.h>

int main(void) {
    unsigned char uc = 255;
    unsigned short us = 65535;
    unsigned u = UINT_MAX;
    unsigned long ul = ULONG_MAX;
    uc++;
    us++;
    u++;
    ul++;
    printf("%d %d %u %lu\n", uc, us, u, ul);
    uc--;
    us--;
    u--;
    ul--;
    printf("%d %d %u %lu\n", uc, us, u, ul);
    uc = 10; uc -= 20;
    us = 10; us -= 20;
    u = 10; u -= 20;
    ul = 10; ul -= 20;
    printf("%d %d %u %lu\n", uc, us, u, ul);
    u = 0x10000; u *= 0x10000;
    printf("%u\n", u);
    u = 3000000000u; u *= 3;
    printf("%u\n", u);
    ul = 0x100000000ul; ul *= 0x100000000ul;
    printf("%lu\n", ul);
    uc = 200; uc *= 2;
    printf("%d\n", uc);
    uc = 200; uc += 100;
    printf("%d\n", uc);
    us = 300; us *= 300;
    printf("%d\n", us);
    printf("%u\n", -(unsigned)5);
    printf("%lu\n", -(unsigned long)5);
    {
        unsigned x = 0;
        int n = 0;
        do { x += 0x40000000u; n++; } while (x != 0);
        printf("%d\n", n);
    }
    return 0;
}
