#include <stdio.h>

int main(void) {
    int a[100];
    int i, n = 0;
    long s = 0;
    for (i = 0; i < 100; i++) a[i] = i * 3 - 50;
    for (i = 99; i >= 0; i -= 3) s += a[i];
    printf("%ld\n", s);
    for (i = 0; i < 100; i++) if (a[i] > 0 && a[i] % 7 == 0) n++;
    printf("%d\n", n);
    {
        unsigned char c;
        int cnt = 0;
        for (c = 250; c != 4; c++) cnt++;
        printf("%d\n", cnt);
    }
    {
        long long x = 1;
        int steps = 0;
        while (x < 1000000000000LL) { x = x * 3 + 1; steps++; }
        printf("%d %lld\n", steps, x);
    }
    {
        int collatz = 27, len = 0;
        while (collatz != 1) { collatz = collatz % 2 ? 3 * collatz + 1 : collatz / 2; len++; }
        printf("%d\n", len);
    }
    return 0;
}
