#include <stdio.h>

static int side;
static int f(int x) { side += x; return x * 2; }

int main(void) {
    int a, b, c;
    a = (f(1), f(2), f(3));
    printf("%d %d\n", a, side);
    b = a > 5 ? 10 : 20;
    c = a < 5 ? f(100) : f(1000);
    printf("%d %d %d\n", b, c, side);
    a = 0;
    b = a ? 1 : a == 0 ? 2 : 3;
    printf("%d\n", b);
    {
        int x = 3, y = 7;
        int *p = x > y ? &x : &y;
        *p = 0;
        printf("%d %d\n", x, y);
        (x < y ? x : y) ;
        printf("%d\n", (x = 5, y = 6, x + y));
    }
    {
        long l = 1;
        double d = 0;
        /* type of ?: is the common type */
        printf("%d\n", (int)sizeof(l ? 1 : 2.0));
        printf("%g\n", l ? 1 : 2.5);
        printf("%g\n", d ? 1 : 2.5);
        unsigned u = 1;
        printf("%d\n", (1 ? -1 : u) > 0);
    }
    {
        int i, s = 0;
        for (i = 0, s = 100; i < 3; i++, s -= 10) ;
        printf("%d %d\n", i, s);
    }
    return 0;
}
