#include <stdio.h>

/* division by constants is often turned into multiplication: check all of them */
static int sdiv3(int x) { return x / 3; }
static int smod3(int x) { return x % 3; }
static int sdiv7(int x) { return x / 7; }
static int sdivm5(int x) { return x / -5; }
static int sdiv8(int x) { return x / 8; }
static int smod8(int x) { return x % 8; }
static unsigned udiv3(unsigned x) { return x / 3; }
static unsigned udiv7(unsigned x) { return x / 7; }
static unsigned umod10(unsigned x) { return x % 10; }
static unsigned udiv16(unsigned x) { return x / 16; }
static long ldiv1000(long x) { return x / 1000; }
static long lmod1000(long x) { return x % 1000; }
static unsigned long uldiv7(unsigned long x) { return x / 7; }
static unsigned long uldiv10(unsigned long x) { return x / 10; }

static int ivals[] = { 0, 1, -1, 2, -2, 3, -3, 7, -7, 8, -8, 9, -9, 100, -100, 2147483647, -2147483647 - 1, 123456789, -123456789 };
static unsigned long lvals[] = { 0, 1, 7, 10, 999, 1000, 1001, 4294967295ul, 4294967296ul, 18446744073709551615ul, 9223372036854775808ul, 12345678901234567ul };

int main(void) {
    int i;
    for (i = 0; i < (int)(sizeof ivals / sizeof ivals[0]); i++) {
        int x = ivals[i];
        printf("%d: %d %d %d %d %d %d %u %u %u %u\n", x, sdiv3(x), smod3(x), sdiv7(x), sdivm5(x),
               sdiv8(x), smod8(x), udiv3(x), udiv7(x), umod10(x), udiv16(x));
    }
    for (i = 0; i < (int)(sizeof lvals / sizeof lvals[0]); i++) {
        unsigned long x = lvals[i];
        long s = (long)(x >> 1);
        printf("%lu: %ld %ld %ld %ld %lu %lu\n", x, ldiv1000(s), lmod1000(s), ldiv1000(-s), lmod1000(-s), uldiv7(x), uldiv10(x));
    }
    return 0;
}
