#include <stdio.h>

static long work(int seed) {
    long big[20000];
    long s = 0;
    int i;
    for (i = 0; i < 20000; i++) big[i] = (long)i * seed;
    for (i = 0; i < 20000; i += 7) s += big[i];
    return s;
}

int main(void) {
    char small[3] = { 1, 2, 3 };
    printf("%ld\n", work(3));
    printf("%ld\n", work(-1));
    printf("%d\n", small[0] + small[2]);
    return 0;
}
