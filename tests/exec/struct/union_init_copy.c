#include <stdio.h>

union U { long long ll; double d; char bytes[8]; struct { int lo, hi; } parts; };

static union U make(long long v) { union U u; u.ll = v; return u; }
static int hi_of(union U u) { return u.parts.hi; }

int main(void) {
    union U a = make(0x1122334455667788LL), b;
    b = a;
    printf("%x %x\n", b.parts.lo, hi_of(b));
    b.bytes[0] = 0;
    printf("%llx %llx\n", a.ll, b.ll);
    {
        union U d = { .d = 1.0 };
        printf("%llx\n", d.ll);
    }
    {
        union U arr[2] = { { 1 }, { .parts = { 2, 3 } } };
        printf("%lld %d %d\n", arr[0].ll, arr[1].parts.lo, arr[1].parts.hi);
    }
    return 0;
}
