#include <stdio.h>
#include <stdint.h>
#include <inttypes.h>

int main(void) {
    int8_t a = -128;
    uint8_t b = 255;
    int16_t c = -32768;
    uint16_t d = 65535;
    int32_t e = INT32_MIN;
    uint32_t f = UINT32_MAX;
    int64_t g = INT64_MIN;
    uint64_t h = UINT64_MAX;
    a--; b++; c--; d++;
    printf("%d %d %d %d\n", a, b, c, d);
    printf("%" PRId32 " %" PRIu32 " %" PRId64 " %" PRIu64 "\n", e, f, g, h);
    printf("%" PRIx64 " %" PRIX32 "\n", (uint64_t)g, f / 3);
    printf("%d\n", (int)(uint8_t)(b - 1));
    printf("%lld\n", (long long)(int32_t)(f - 1));
    return 0;
}
