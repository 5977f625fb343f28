#include <stdio.h>

static char c = 'q';
static short s = -1234;
static unsigned short us = 60000;
static int i = -2000000000;
static unsigned u = 3000000000u;
static long l = -9000000000000000000L;
static unsigned long ul = 18000000000000000000UL;
static float f = 3.25f;
static double d = -1e-200;
static long double ld = 1.0L / 3;
static _Bool b = 7;
static int computed = (3 * 4 + 2) << 2;
static double dexpr = 1.0 / 4 + 2;
static int zero_init;
static char *null_ptr;
static unsigned char uc_arr[4] = { 255, 256 - 1, -1, 0x1ff };

int main(void) {
    printf("%c %d %d %d %u\n", c, s, us, i, u);
    printf("%ld %lu\n", l, ul);
    printf("%g %g %.10Lf %d\n", f, d, ld, b);
    printf("%d %g %d %d\n", computed, dexpr, zero_init, null_ptr == 0);
    printf("%d %d %d %d\n", uc_arr[0], uc_arr[1], uc_arr[2], uc_arr[3]);
    return 0;
}
