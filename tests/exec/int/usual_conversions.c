#include <stdio.h>

int main(void) {
    int i = -1;
    unsigned u = 1;
    long l = -1;
    unsigned long ul = 1;
    long long ll = -5;
    unsigned int big = 4000000000u;
    /* int vs unsigned: int converts to unsigned */
    printf("%d\n", i < u);
    printf("%u\n", i + u);
    printf("%u\n", (unsigned)i);
    /* long vs unsigned int: unsigned converts to long (long is wider) */
    printf("%d\n", l < u);
    printf("%ld\n", l + big);
    /* long vs unsigned long */
    printf("%d\n", l < ul);
    printf("%lu\n", l + ul);
    printf("%lld\n", ll * big);
    printf("%d\n", (int)sizeof(i + u));
    printf("%d\n", (int)sizeof(i + l));
    printf("%d\n", (int)sizeof(u + l));
    printf("%d\n", (int)sizeof('a' + 1L));
    printf("%u\n", big / 3);
    printf("%ld\n", (long)big / -3);
    printf("%u\n", big + big);
    printf("%lu\n", (unsigned long)big + big);
    printf("%d\n", -1 < 0u);
    printf("%d\n", -1L < 0u);
    printf("%d\n", -1 < (unsigned char)0);
    printf("%u\n", 0u - 1);
    printf("%lu\n", 0ul - 1);
    printf("%d\n", (int)(big >> 1));
    printf("%lld\n", (long long)big * -2);
    return 0;
}
