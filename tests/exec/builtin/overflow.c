#include <stdio.h>
#include <limits.h>

int main(void) {
    int r;
    long lr;
    unsigned ur;
    int o;
    o = __builtin_add_overflow(INT_MAX, 1, &r); printf("%d %d\n", o, r);
    o = __builtin_add_overflow(100, 200, &r); printf("%d %d\n", o, r);
    o = __builtin_sub_overflow(INT_MIN, 1, &r); printf("%d %d\n", o, r);
    o = __builtin_mul_overflow(65536, 65536, &r); printf("%d %d\n", o, r);
    o = __builtin_mul_overflow(65536L, 65536L, &lr); printf("%d %ld\n", o, lr);
    o = __builtin_add_overflow(4000000000u, 300000000u, &ur); printf("%d %u\n", o, ur);
    o = __builtin_sub_overflow(0u, 1u, &ur); printf("%d %u\n", o, ur);
    o = __builtin_mul_overflow(-3, 5, &ur); printf("%d %u\n", o, ur);
    o = __builtin_add_overflow(LONG_MAX, 0L, &lr); printf("%d %ld\n", o, lr);
    return 0;
}
