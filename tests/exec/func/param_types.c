#include <stdio.h>

static int pc(char c, unsigned char uc, short s, unsigned short us) { return c + uc + s + us; }
static long pl(signed char a, long b) { return a * b; }
static double pmix(char c, float f, short s, double d) { return c + f + s + d; }
static int pbool(_Bool a, _Bool b) { return a * 2 + b; }

int main(void) {
    volatile int big = 0x12345;
    printf("%d\n", pc(-1, 255, -1, 65535));
    printf("%d\n", pc((char)big, (unsigned char)big, (short)big, (unsigned short)big));
    printf("%ld\n", pl(-128, 1000000000000L));
    printf("%g\n", pmix(-3, 0.5f, -300, 1e3));
    printf("%d %d\n", pbool(1, 0), pbool(5, 7));
    return 0;
}
