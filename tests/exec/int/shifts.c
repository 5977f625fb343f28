#include <stdio.h>

static int amounts[] = { 0, 1, 5, 15, 16, 31 };

int main(void) {
    int i;
    for (i = 0; i < 6; i++) {
        int s = amounts[i];
        printf("s=%d: %u %u %d %d %u\n", s, 1u << s, 0x80000000u >> s, -1 >> s, -2147483647 >> s, 0xdeadbeefu >> s);
    }
    for (i = 0; i < 64; i += 7) {
        printf("l%d: %lu %ld %lu\n", i, 1ul << i, (-9223372036854775807L - 1) >> i, 0xfedcba9876543210ul >> i);
    }
    /* the shift amount has its own type: a long amount with an int operand */
    {
        long n = 3;
        unsigned char c = 0x81;
        printf("%d %d\n", 5 << n, c << 4);
        printf("%d\n", (int)sizeof(1 << n));
        printf("%d\n", (signed char)c >> 1);
    }
    {
        unsigned long long x = 1;
        int k;
        for (k = 0; k < 64; k++)
            x = (x << 1) | (x >> 63);
        printf("%llu\n", x);
        x = 0x8000000000000001ull;
        printf("%llx %llx\n", (x << 4) | (x >> 60), (x >> 4) | (x << 60));
    }
    return 0;
}
