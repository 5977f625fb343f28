#include <stdio.h>

struct inner { int a, b; };
struct outer { int x; struct inner in; int arr[4]; double d; };

static struct outer g = { .in.b = 5, .arr[2] = 7, .x = 1, .d = 2.5 };
static int sparse[10] = { [9] = 9, [3] = 3, 4, 5 };

int main(void) {
    struct outer l = { .arr = { 1, [3] = 4 }, .in = { .a = 8 } };
    struct outer l2 = { 9, { 8, 7 }, { 6, 5, 4, 3 }, 2.0 };
    struct inner arr[3] = { [2].a = 1, [0] = { 2, 3 } };
    int i;
    printf("%d %d %d %d %g\n", g.x, g.in.a, g.in.b, g.arr[2], g.d);
    for (i = 0; i < 10; i++) printf("%d ", sparse[i]);
    printf("\n%d %d %d %d %d %d %g\n", l.x, l.in.a, l.in.b, l.arr[0], l.arr[1], l.arr[3], l.d);
    printf("%d %d %d\n", l2.in.b, l2.arr[3], (int)l2.d);
    printf("%d %d %d %d %d\n", arr[0].a, arr[0].b, arr[1].a, arr[2].a, arr[2].b);
    return 0;
}
