/* va_arg of records whose alignment is not their natural one: a 32-byte record aligned
   to 16 (AAPCS64 passes a pointer to a copy: no even register, no 16-aligned stack
   slot), a record made 16-aligned by an attribute on the record (its natural alignment,
   that of its members, is 8) and one whose member is 16-aligned (natural alignment 16),
   read after an odd number of register slots and again from the stack. */
#include <stdarg.h>
#include <stdio.h>

struct Big { unsigned short a : 6; _Bool b __attribute__((aligned(16))); };
struct __attribute__((aligned(16))) Rec { long x, y; };
struct Mem { long x __attribute__((aligned(16))); long y; };

static long f(int n, ...) {
    va_list ap;
    va_start(ap, n);
    long s = 0;
    for (int i = 0; i < n; i++) {
        struct Big big = va_arg(ap, struct Big);
        long l = va_arg(ap, long);
        struct Rec r = va_arg(ap, struct Rec);
        int k = va_arg(ap, int);
        struct Mem m = va_arg(ap, struct Mem);
        printf("%d %d %ld %ld %ld %d %ld %ld\n", big.a, big.b, l, r.x, r.y, k, m.x, m.y);
        s += big.a + l + r.x + r.y + k + m.x + m.y;
    }
    va_end(ap);
    return s;
}

int main(void) {
    struct Big b1 = { 5, 1 }, b2 = { 33, 0 };
    struct Rec r1 = { 10, 11 }, r2 = { -20, -21 };
    struct Mem m1 = { 100, 101 }, m2 = { 200, 201 };
    printf("%ld\n", f(1, b1, 7L, r1, 8, m1));
    printf("%ld\n", f(2, b1, 7L, r1, 8, m1, b2, -7L, r2, -8, m2));
    printf("%ld\n", f(3, b2, 1L, r2, 2, m2, b1, 3L, r1, 4, m1, b2, 5L, r2, 6, m2));
    return 0;
}
