#include <stdio.h>

static int vals[] = { 7, -7, 13, -13, 1, -1, 100, -100 };
static int divs[] = { 2, -2, 3, -3, 5, -5, 7, -7, 1, -1 };

int main(void) {
    int i, j;
    for (i = 0; i < 8; i++) {
        for (j = 0; j < 10; j++) {
            int a = vals[i], b = divs[j];
            printf("%d/%d=%d %d%%%d=%d ", a, b, a / b, a, b, a % b);
            printf("check %d\n", (a / b) * b + a % b == a);
        }
    }
    printf("%ld %ld\n", -9223372036854775807L / 10, -9223372036854775807L % 10);
    printf("%lld %lld\n", -17LL / 4, -17LL % 4);
    printf("%u %u\n", 4294967295u / 7, 4294967295u % 7);
    printf("%lu %lu\n", 18446744073709551615ul / 10, 18446744073709551615ul % 10);
    printf("%d\n", -2147483647 / -1);
    return 0;
}
