#include <stdio.h>

static int lt_iu(int a, unsigned b) { return a < b; }
static int lt_il(int a, long b) { return a < b; }
static int lt_ul(unsigned a, long b) { return a < b; }
static int lt_lul(long a, unsigned long b) { return a < b; }
static int eq_cu(char a, unsigned char b) { return a == b; }
static int gt_su(short a, unsigned short b) { return a > b; }

int main(void) {
    printf("%d %d %d\n", lt_iu(-1, 1), lt_iu(1, 2), lt_iu(-1, 4294967295u));
    printf("%d %d\n", lt_il(-1, 1), lt_il(2147483647, 2147483648L));
    printf("%d %d\n", lt_ul(4294967295u, -1), lt_ul(1, 2));
    printf("%d %d\n", lt_lul(-1, 1), lt_lul(1, 2));
    printf("%d %d\n", eq_cu(-1, 255), eq_cu(5, 5));
    printf("%d %d\n", gt_su(-1, 1), gt_su(2, 1));
    {
        int a = -5;
        unsigned b = 3;
        printf("%d %d %d %d\n", a < b, a > b, a <= (int)b, (unsigned)a == 4294967291u);
        printf("%d\n", a < 0 ? 1 : 0);
        printf("%d\n", (a & 0x80000000) != 0);
    }
    {
        long long x = -1;
        unsigned long long y = 0;
        printf("%d %d\n", x < y, x < (long long)y);
    }
    return 0;
}
