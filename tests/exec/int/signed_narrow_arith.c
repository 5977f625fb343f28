#include <stdio.h>

int main(void) {
    signed char a = 100, b = 100;
    short s = 20000, t = 20000;
    signed char c = a + b;     /* computed in int, then converted (wraps) */
    short u = s + t;
    int wide = a + b;
    int swide = s + t;
    printf("%d %d %d %d\n", c, u, wide, swide);
    a = -128;
    a = -a;
    printf("%d\n", a);
    s = -32768;
    s = s / -1;
    printf("%d\n", s);
    {
        unsigned char x = 0x80;
        signed char y = (signed char)x;
        printf("%d %d %d\n", y >> 1, y / 2, (y * y) >> 7);
    }
    {
        short sh = -1;
        unsigned short ush = (unsigned short)sh;
        printf("%u %d %d\n", ush, ush == 65535, sh == -1);
    }
    return 0;
}
