#include <stdio.h>

static int table[10] = { [0 ... 3] = 1, [4 ... 6] = 2, [8] = 9 };
static const char *names[6] = { [1 ... 4] = "mid", [0] = "first", [5] = "last" };

int main(void) {
    int i;
    int local[8] = { [2 ... 5] = -7, [7] = 3 };
    struct { int a[4]; } s = { .a = { [1 ... 2] = 42 } };
    for (i = 0; i < 10; i++) printf("%d ", table[i]);
    printf("\n");
    for (i = 0; i < 6; i++) printf("%s ", names[i]);
    printf("\n");
    for (i = 0; i < 8; i++) printf("%d ", local[i]);
    printf("\n%d %d %d %d\n", s.a[0], s.a[1], s.a[2], s.a[3]);
    return 0;
}
