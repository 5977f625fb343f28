#include <stdio.h>

static _Bool to_bool(long x) { return x; }
static _Bool dto_bool(double x) { return x; }

int main(void) {
    _Bool b = 0;
    _Bool arr[4] = { 0, 5, -1, 0 };
    int i;
    printf("%d\n", (int)sizeof(_Bool));
    b = 256;
    printf("%d\n", b);
    b = 0.5;
    printf("%d\n", b);
    b = 0.0;
    printf("%d\n", b);
    printf("%d %d %d %d\n", to_bool(0), to_bool(1L << 40), to_bool(-1), to_bool(0x100000000L));
    printf("%d %d %d\n", dto_bool(0.0), dto_bool(-0.0), dto_bool(1e-300));
    for (i = 0; i < 4; i++)
        printf("%d", arr[i]);
    printf("\n");
    b = 1;
    b++;
    printf("%d\n", b);
    b = 0;
    b--;
    printf("%d\n", b);
    b = 1;
    b += 1;
    printf("%d\n", b);
    printf("%d\n", b + b);
    {
        int *p = &i;
        _Bool pb = p;
        printf("%d\n", pb);
        p = 0;
        pb = p;
        printf("%d\n", pb);
    }
    return 0;
}
