#include <stdio.h>

static _Thread_local int counter = 5;
_Thread_local long tl_array[4] = { 1, 2, 3, 4 };
static __thread double tl_d;

static int bump(void) { return ++counter; }

int main(void) {
    int *p = &counter;
    bump();
    bump();
    printf("%d %d\n", counter, *p);
    tl_array[2] += 10;
    printf("%ld %ld\n", tl_array[2], tl_array[3]);
    tl_d = 2.5;
    tl_d *= counter;
    printf("%g\n", tl_d);
    return 0;
}
