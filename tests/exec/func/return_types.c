#include <stdio.h>

static char rc(int x) { return x; }
static unsigned char ruc(int x) { return x; }
static short rs(int x) { return x; }
static unsigned short rus(int x) { return x; }
static _Bool rb(int x) { return x; }
static long rl(int x) { return x; }
static unsigned rui(long x) { return x; }
static float rf(double x) { return x; }
static void *rp(int *x) { return x + 1; }

int main(void) {
    int arr[2] = { 1, 2 };
    /* the caller must see a correctly extended value */
    printf("%d %d %d %d %d\n", rc(200), ruc(-1), rs(40000), rus(-2), rb(256));
    printf("%ld %u\n", rl(-5), rui(-1L));
    printf("%d %d\n", rc(200) < 0, ruc(300) == 44);
    printf("%ld\n", (long)rc(-1) + (long)ruc(-1) + rs(-1) + rus(-1));
    printf("%.9g\n", rf(0.1));
    printf("%d\n", *(int *)rp(arr));
    return 0;
}
