#include <stdio.h>

int main(void) {
    printf("%d %d %d\n", 0x7f, 0177, 0);
    printf("%u %lu %llu\n", 0xffffffffu, 0xfffffffffful, 01777777777777777777777ull);
    printf("%d\n", 0x7FFFFFFF);
    printf("%lld\n", 9223372036854775807LL);
    printf("%llu\n", 18446744073709551615ULL);
    printf("%d\n", 'a');
    printf("%d %d %d %d\n", '\n', '\0', '\177', '\x41');
    printf("%d\n", 1000000 * 2);
    printf("%ld\n", 1000000L * 1000000L);
    printf("%d %d\n", 0x10 + 010, 0XaB);
    printf("%lu\n", 0xFFFFFFFFUL + 1);
    printf("%d\n", (int)sizeof(0xffffffff));
    printf("%d\n", (int)sizeof(4294967295));
    printf("%d\n", -2147483648 < 0);
    return 0;
}
