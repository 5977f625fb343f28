#include <stdio.h>
#include <string.h>

struct date { int y; unsigned char m, d; };

static int cmp(const struct date *a, const struct date *b) {
    if (a->y != b->y) return a->y < b->y ? -1 : 1;
    if (a->m != b->m) return a->m < b->m ? -1 : 1;
    if (a->d != b->d) return a->d < b->d ? -1 : 1;
    return 0;
}

int main(void) {
    struct date ds[] = { { 2020, 5, 1 }, { 2019, 12, 31 }, { 2020, 5, 2 }, { 2020, 1, 15 } };
    int i, j;
    for (i = 0; i < 4; i++) {
        for (j = 0; j < 4; j++) printf("%2d", cmp(&ds[i], &ds[j]));
        printf("\n");
    }
    {
        struct date x, y;
        memset(&x, 0, sizeof x);
        memset(&y, 0, sizeof y);
        x.y = y.y = 1; x.m = y.m = 2; x.d = y.d = 3;
        printf("%d\n", memcmp(&x, &y, sizeof x) == 0);
    }
    return 0;
}
