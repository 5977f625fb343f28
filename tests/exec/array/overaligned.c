#include <stdint.h>
#include <stdio.h>

/* Objects aligned beyond the 16 bytes the stack pointer keeps: _Alignas and aligned
   locals, an _Alignas variable length array, and __builtin_alloca_with_align (whose
   alignment is in bits), in a function called at different stack depths. Each address
   is checked for its alignment and each object is written and read back. */

struct __attribute__((aligned(64))) Line { int v[3]; };

static int misaligned(const void *p, uintptr_t a) { return (uintptr_t)p % a != 0; }

__attribute__((noinline)) static int probe(int n) {
    char before = (char)n;
    _Alignas(128) char a[3];
    struct Line line;
    short mid = (short)(n * 3);
    _Alignas(256) int vla[n + 1];
    char *raw = __builtin_alloca_with_align(n + 5, 1024 * 8);
    int bad = misaligned(a, 128) + misaligned(&line, 64) + misaligned(vla, 256) +
              misaligned(raw, 1024);
    a[0] = 1; a[2] = 2;
    line.v[0] = 3; line.v[2] = 4;
    for (int i = 0; i <= n; i++) vla[i] = i * 7;
    for (int i = 0; i < n + 5; i++) raw[i] = (char)i;
    int sum = a[0] + a[2] + line.v[0] + line.v[2] + vla[n] + raw[n + 4] + before + mid;
    return bad ? -1000 * bad : sum;
}

static int depth(int k, int n) {
    volatile char pad[24];
    pad[0] = (char)k;
    if (k > 0) return depth(k - 1, n) + pad[0] * 0;
    return probe(n);
}

int main(void) {
    for (int k = 0; k < 4; k++)
        for (int n = 1; n < 40; n += 13)
            printf("depth %d n %d: %d\n", k, n, depth(k, n));
    return 0;
}
