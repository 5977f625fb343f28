#include <stdio.h>
#include <string.h>

int main(void) {
    static char composite[100001];
    int i, j, count = 0, last = 0;
    long sum = 0;
    memset(composite, 0, sizeof composite);
    for (i = 2; (long)i * i <= 100000; i++)
        if (!composite[i])
            for (j = i * i; j <= 100000; j += i) composite[j] = 1;
    for (i = 2; i <= 100000; i++)
        if (!composite[i]) { count++; sum += i; last = i; }
    printf("%d %ld %d\n", count, sum, last);
    for (i = 2, j = 0; j < 20; i++) if (!composite[i]) { printf("%d ", i); j++; }
    printf("\n");
    return 0;
}
