#include <stdio.h>

static int calls;
static int effect(int v) { calls++; return v; }

int main(void) {
    int x = 0, unused;
    unused = effect(1) * 0;          /* result unused, call must happen */
    (void)effect(2);
    if (0 && effect(3)) x = 1;        /* never called */
    if (1 || effect(4)) x = 2;
    x = effect(5) - effect(5) + x;   /* both calls happen */
    effect(6) ? 0 : 0;
    while (0) effect(7);
    printf("%d %d\n", x, calls);
    {
        int arr[4] = { 1, 2, 3, 4 }, i;
        for (i = 0; i < 4; i++) arr[i] = arr[i] * 2;
        arr[0] = 9;                  /* overwrite: earlier store dead */
        printf("%d %d\n", arr[0], arr[3]);
    }
    return 0;
}
