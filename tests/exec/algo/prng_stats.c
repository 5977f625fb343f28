#include <stdio.h>
#include <stdint.h>

static uint64_t s[2] = { 0x123456789abcdefull, 0xfedcba9876543210ull };
static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static uint64_t xoroshiro(void) {
    uint64_t s0 = s[0], s1 = s[1], r = s0 + s1;
    s1 ^= s0;
    s[0] = rotl(s0, 55) ^ s1 ^ (s1 << 14);
    s[1] = rotl(s1, 36);
    return r;
}
static uint32_t xorshift32(uint32_t *st) { uint32_t x = *st; x ^= x << 13; x ^= x >> 17; x ^= x << 5; return *st = x; }

int main(void) {
    int i, buckets[8] = { 0 };
    uint32_t st = 2463534242u;
    double mean = 0;
    for (i = 0; i < 5; i++) printf("%016llx\n", (unsigned long long)xoroshiro());
    for (i = 0; i < 10000; i++) {
        uint64_t r = xoroshiro();
        buckets[r >> 61]++;
        mean += (double)(r >> 11) * (1.0 / 9007199254740992.0);
    }
    for (i = 0; i < 8; i++) printf("%d ", buckets[i]);
    printf("\n%.6f\n", mean / 10000);
    for (i = 0; i < 3; i++) printf("%u ", xorshift32(&st));
    printf("\n");
    return 0;
}
