#include <stdio.h>
#include <limits.h>

/* the same expressions on constants (foldable) and on volatile loads (not foldable) */
static volatile int vi[] = { INT_MIN, -7, 3, INT_MAX };
static volatile unsigned vu[] = { 0, 7, 0x80000000u, UINT_MAX };

int main(void) {
    printf("%d %d %d %d\n", INT_MIN / 7, INT_MIN % 7, -7 / 3, -7 % 3);
    printf("%d %d %d %d\n", vi[0] / 7, vi[0] % 7, vi[1] / vi[2], vi[1] % vi[2]);
    printf("%u %u %u\n", 0x80000000u >> 31, UINT_MAX / 7, 7u - 8u);
    printf("%u %u %u\n", vu[2] >> 31, vu[3] / vu[1], vu[1] - 8u);
    printf("%d %d\n", -1 >> 1, (int)0x80000000u >> 4);
    printf("%d %d\n", vi[1] >> 1, (int)vu[2] >> 4);
    printf("%lld %lld\n", (long long)INT_MIN * -1, (long long)vi[0] * -1);
    printf("%d %d\n", INT_MAX + 0u > 0, vi[3] + 0u > 0);
    printf("%d %d\n", (unsigned char)-1 == 255, (unsigned char)vi[1] == 249);
    printf("%d %d\n", (short)70000, (short)(vi[3] - 2147413647));
    return 0;
}
