#include <stdio.h>

int main(void) {
    int a = 100;
    unsigned u = 7;
    long l = -50;
    short s = 1000;
    signed char c = 100;
    double d = 2.5;
    int arr[3] = { 1, 2, 3 };
    int k = 0;
    a += 5; printf("%d\n", a);
    a -= 205; printf("%d\n", a);
    a *= -3; printf("%d\n", a);
    a /= 7; printf("%d\n", a);
    a %= 5; printf("%d\n", a);
    a <<= 4; printf("%d\n", a);
    a >>= 2; printf("%d\n", a);
    a &= 0xf; printf("%d\n", a);
    a |= 0x30; printf("%d\n", a);
    a ^= 0xff; printf("%d\n", a);
    u -= 10; printf("%u\n", u);
    u >>= 28; printf("%u\n", u);
    l *= l; printf("%ld\n", l);
    s *= 40; printf("%d\n", s);
    c += 100; printf("%d\n", c);
    c *= 3; printf("%d\n", c);
    a = 7; a *= 2.5; printf("%d\n", a);
    a = 7; a /= 0.5; printf("%d\n", a);
    d *= 4; printf("%g\n", d);
    d -= a; printf("%g\n", d);
    arr[k++] += 10;
    printf("%d %d %d %d\n", arr[0], arr[1], arr[2], k);
    arr[++k] *= 5;
    printf("%d %d %d %d\n", arr[0], arr[1], arr[2], k);
    return 0;
}
