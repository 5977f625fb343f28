#include <stdio.h>

typedef unsigned long ulong;
typedef int arr3[3];
typedef struct { int x; } wrapper;
typedef int (*handler)(int);
typedef const char *cstr;

static int dbl(int v) { return v * 2; }

int main(void) {
    ulong u = 5;
    arr3 a = { 1, 2, 3 };
    wrapper w = { 4 };
    handler h = dbl;
    cstr s = "text";
    const volatile int cv = 9;
    int const *restrict rp = &a[1];
    printf("%lu %d %d %d %s %d %d\n", u, a[2], w.x, h(21), s, cv, *rp);
    printf("%d %d\n", (int)sizeof(arr3), (int)sizeof(ulong));
    return 0;
}
