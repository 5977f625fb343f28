#include <stdio.h>

int main(void) {
    int a[300];
    int i;
    signed char sc = -1;
    unsigned char uc = 255;
    short s = 299;
    unsigned short us = 150;
    long l = 42;
    unsigned long ul = 7;
    long long ll = 100;
    for (i = 0; i < 300; i++) a[i] = i * 2;
    {
        int *mid = a + 10;
        printf("%d %d %d %d %d %d %d\n", mid[sc], a[uc], a[s], a[us], a[l], a[ul], a[ll]);
        printf("%d %d\n", mid[-10], *(mid + sc * 5));
        printf("%d\n", a[(unsigned char)(uc + 1)]);
        printf("%d\n", a['a']);
    }
    return 0;
}
