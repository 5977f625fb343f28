#include <stdio.h>

static volatile int vcount;
static volatile double vd;

static void spin(int n) { while (n--) vcount++; }

int main(void) {
    volatile int x = 5;
    volatile int arr[4] = { 1, 2, 3, 4 };
    volatile struct { int a; char b; } s = { 7, 'q' };
    int *volatile pv = (int *)&arr[1];
    int i, sum = 0;
    spin(1000);
    printf("%d\n", vcount);
    x = x + 1;
    x += x;
    printf("%d\n", x);
    for (i = 0; i < 4; i++) sum += arr[i];
    printf("%d %d %c\n", sum, s.a, s.b);
    vd = 1.5;
    vd *= 3;
    printf("%g %d\n", vd, *pv);
    return 0;
}
