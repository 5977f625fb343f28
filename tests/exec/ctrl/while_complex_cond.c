#include <stdio.h>

int main(void) {
    const char *s = "  hello, world  ";
    const char *p = s;
    int words = 0, in = 0, i = 0, j = 100;
    while (*p == ' ') p++;
    printf("[%s]\n", p);
    for (p = s; *p; p++) {
        if (*p != ' ' && *p != ',') { if (!in) words++; in = 1; }
        else in = 0;
    }
    printf("%d\n", words);
    while (i < j && (i * i) < j && !(i == 7)) { i++; j -= 3; }
    printf("%d %d\n", i, j);
    {
        int a[] = { 3, 5, 8, 13, 21, 0 };
        int *q = a;
        long sum = 0;
        while (*q && (*q % 2 || *q < 10)) sum += *q++;
        printf("%ld %d\n", sum, *q);
    }
    return 0;
}
