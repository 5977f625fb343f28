#include <stdio.h>
#include <stdint.h>

static uint16_t v16[] = { 0, 0x1234, 0xff00, 0x00ff };
static uint32_t v32[] = { 0, 0x12345678, 0xff000000u, 0x000000ff, 0xdeadbeefu };
static uint64_t v64[] = { 0, 0x0123456789abcdefull, 0xff00000000000000ull, 0xff, 0x8000000000000001ull };

int main(void) {
    int i;
    for (i = 0; i < 4; i++) printf("%04x -> %04x\n", v16[i], __builtin_bswap16(v16[i]));
    for (i = 0; i < 5; i++) printf("%08x -> %08x\n", v32[i], __builtin_bswap32(v32[i]));
    for (i = 0; i < 5; i++) printf("%016llx -> %016llx\n", (unsigned long long)v64[i], (unsigned long long)__builtin_bswap64(v64[i]));
    printf("%08x\n", __builtin_bswap32(0x11223344));
    printf("%016llx\n", (unsigned long long)__builtin_bswap64(0x1122334455667788ull));
    return 0;
}
