#include <stdio.h>
#include <stddef.h>

int main(void) {
    int a[10];
    int *p = a, *q = a + 7;
    long l[4];
    char *cp = (char *)a;
    double d[3];
    int i;
    for (i = 0; i < 10; i++) a[i] = i * i;
    printf("%d %d\n", *(p + 3), *(q - 2));
    printf("%ld\n", (long)(q - p));
    printf("%ld\n", (long)(p - q));
    printf("%d %d %d\n", p < q, p == a, q >= a + 7);
    printf("%ld\n", (long)((char *)q - cp));
    printf("%ld\n", (long)((char *)(l + 3) - (char *)l));
    printf("%ld\n", (long)((char *)(d + 2) - (char *)d));
    printf("%d\n", 3[a]);
    p = &a[9];
    while (p > a) p -= 3;
    printf("%d\n", *p);
    {
        ptrdiff_t diff = &a[8] - &a[1];
        printf("%ld\n", (long)diff);
    }
    {
        int idx = -2;
        int *mid = a + 5;
        printf("%d %d\n", mid[idx], *(mid + idx));
        long li = 3;
        unsigned char uc = 2;
        printf("%d %d\n", mid[li], mid[uc]);
    }
    return 0;
}
