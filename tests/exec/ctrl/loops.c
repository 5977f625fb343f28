#include <stdio.h>

int main(void) {
    int i, j, n;
    long s = 0;
    for (i = 0; i < 10; i++) s += i;
    printf("%ld\n", s);
    i = 0;
    while (i < 100) { i += 7; if (i % 5 == 0) continue; s += i; }
    printf("%d %ld\n", i, s);
    n = 0;
    do { n++; } while (n < 0);
    printf("%d\n", n);
    for (i = 0;; i++) { if (i * i > 200) break; }
    printf("%d\n", i);
    for (i = 10, j = 0; i > j; i--, j++) ;
    printf("%d %d\n", i, j);
    n = 0;
    for (i = 0; i < 5; i++)
        for (j = 0; j < 5; j++) {
            if (j > i) break;
            if ((i + j) % 2) continue;
            n += i * j;
        }
    printf("%d\n", n);
    {
        unsigned u = 10;
        int cnt = 0;
        while (u--) cnt++;
        printf("%d %u\n", cnt, u);
    }
    {
        int k = 3;
        do {
            printf("k%d ", k);
            if (k == 1) continue;
        } while (--k);
        printf("\n");
    }
    return 0;
}
