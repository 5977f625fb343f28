/* Local objects aligned to more than the stack's 16 bytes, several in one frame with
   ordinary ones between them, their addresses taken and kept across calls; an
   over-aligned struct passed by value (the caller's copy is over-aligned too). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct __attribute__((aligned(32))) V { int a, b; };

__attribute__((noinline)) static int misalign(const void *p, unsigned a) {
    return (int)((uintptr_t)p % a);
}

__attribute__((noinline)) static void fill(char *p, int n, char c) {
    memset(p, c, (size_t)n);
}

__attribute__((noinline)) static int sum(struct V v, int k) {
    return v.a * 10 + v.b + k + misalign(&v, 32);
}

static int frame(int k) {
    char small = 'x';
    char b64[3] __attribute__((aligned(64)));
    short mid = 7;
    int b32[5] __attribute__((aligned(32)));
    long double ld = 2.5L;
    char b128[9] __attribute__((aligned(128)));
    struct V v = { k, k + 1 };
    fill(b64, 3, 'a');
    fill((char *)b32, (int)sizeof b32, 1);
    fill(b128, 9, 'c');
    printf("misalign %d %d %d %d\n", misalign(b64, 64), misalign(b32, 32),
           misalign(b128, 128), misalign(&v, 32));
    printf("%c %d %.1Lf %c%c %x %c%c\n", small, mid, ld, b64[0], b64[2], (unsigned)b32[4],
           b128[0], b128[8]);
    return sum(v, k);
}

int main(void) {
    int r = frame(3);
    printf("sum %d\n", r);
    r = frame(-2);
    printf("sum %d\n", r);
    return 0;
}
