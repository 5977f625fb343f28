#include <stdio.h>

int main(void) {
    int i = 5, j;
    long l = -1;
    unsigned char uc = 0;
    short s = 32766;
    int arr[5] = { 10, 20, 30, 40, 50 };
    int *p = arr;
    j = i++;
    printf("%d %d\n", i, j);
    j = ++i;
    printf("%d %d\n", i, j);
    j = i--;
    printf("%d %d\n", i, j);
    j = --i;
    printf("%d %d\n", i, j);
    l++;
    printf("%ld\n", l);
    uc--;
    printf("%d\n", uc);
    s++;
    printf("%d\n", s);
    printf("%d\n", *p++);
    printf("%d\n", *++p);
    printf("%d\n", ++*p);
    printf("%d\n", (*p)++);
    printf("%d\n", *p);
    printf("%d\n", (int)(p - arr));
    p += 2;
    printf("%d\n", p[-1]);
    p--;
    printf("%d\n", *p);
    {
        double d = 1.5;
        float f = -0.5f;
        d++;
        f--;
        printf("%g %g\n", d, f);
        printf("%g %g\n", ++d, f++);
    }
    return 0;
}
