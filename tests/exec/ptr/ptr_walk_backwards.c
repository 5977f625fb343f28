#include <stdio.h>

int main(void) {
    long a[6] = { 1, 20, 300, 4000, 50000, 600000 };
    long *p;
    long s = 0;
    for (p = a + 5; p >= a + 1; p--) s = s * 2 + *p;
    printf("%ld\n", s);
    {
        const char *str = "reverse me";
        const char *e = str;
        while (*e) e++;
        while (e != str) putchar(*--e);
        putchar('\n');
    }
    {
        short arr[5] = { 5, 4, 3, 2, 1 };
        short *q = &arr[4];
        printf("%d %d %d\n", q[-4], *(q - 2), (int)(q - arr));
    }
    return 0;
}
