#include <stdio.h>
#include <limits.h>
#include <stdint.h>

int main(void) {
    printf("%d %d %d\n", SCHAR_MIN, SCHAR_MAX, UCHAR_MAX);
    printf("%d %d %d\n", SHRT_MIN, SHRT_MAX, USHRT_MAX);
    printf("%d %d %u\n", INT_MIN, INT_MAX, UINT_MAX);
    printf("%ld %ld %lu\n", LONG_MIN, LONG_MAX, ULONG_MAX);
    printf("%lld %lld %llu\n", LLONG_MIN, LLONG_MAX, ULLONG_MAX);
    printf("%d %d %d %d\n", (int)sizeof(char), (int)sizeof(short), (int)sizeof(int), (int)sizeof(long));
    printf("%d %d %d\n", (int)sizeof(long long), (int)sizeof(void *), (int)sizeof(size_t));
    printf("%d %d %d %d\n", (int)sizeof(int8_t), (int)sizeof(int16_t), (int)sizeof(int32_t), (int)sizeof(int64_t));
    printf("%d %d\n", (int)sizeof(intptr_t), (int)sizeof(uintmax_t));
    printf("%lld %llu\n", (long long)INT64_MIN, (unsigned long long)UINT64_MAX);
    printf("%d\n", INT8_MIN + INT16_MIN);
    printf("%lu\n", (unsigned long)SIZE_MAX);
    printf("%d %d\n", (int)sizeof(1), (int)sizeof(1L));
    printf("%d %d %d\n", (int)sizeof(2147483648), (int)sizeof(0x80000000), (int)sizeof(4294967296));
    printf("%d %d\n", (int)sizeof('a'), (int)sizeof(1ULL));
    return 0;
}
