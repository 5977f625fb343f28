#include <stdio.h>

static int sign(int x) {
    if (x > 0) return 1;
    if (x < 0) return -1;
    if (x == 0) return 0;
    __builtin_unreachable();
}

int main(void) {
    int i, hits = 0;
    for (i = -5; i <= 5; i++) {
        if (__builtin_expect(i == 3, 0)) hits += 100;
        if (__builtin_expect(!!(i & 1), 1)) hits++;
        printf("%d ", sign(i));
    }
    printf("\n%d\n", hits);
    {
        long v = __builtin_expect(12345L, 12345L);
        printf("%ld\n", v);
    }
    return 0;
}
