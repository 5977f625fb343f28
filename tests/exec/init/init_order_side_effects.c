#include <stdio.h>

static int n;
static int next(void) { return ++n; }

int main(void) {
    int a = next();
    int b = next() * 10;
    int arr[3];
    struct { int x, y; } s;
    arr[0] = next(); arr[1] = next(); arr[2] = next();
    s.x = next(); s.y = next();
    printf("%d %d %d %d %d %d %d\n", a, b, arr[0], arr[1], arr[2], s.x, s.y);
    {
        int x = 5, y = x * 2, z = y + x;
        printf("%d %d %d\n", x, y, z);
    }
    {
        int v[4] = { [1] = 7 };
        int w[4] = { 0 };
        printf("%d %d %d\n", v[0], v[1], w[3]);
    }
    return 0;
}
