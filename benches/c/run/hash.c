/* hash: FNV-1a and a djb2 hash over generated strings, with an open-addressing table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TBITS 16
#define TSIZE (1u << TBITS)

struct slot { unsigned long key; unsigned count; };
static struct slot table[TSIZE];

static unsigned long fnv1a(const char *s, size_t n) {
    unsigned long h = 1469598103934665603UL;
    for (size_t i = 0; i < n; i++) { h ^= (unsigned char)s[i]; h *= 1099511628211UL; }
    return h;
}

static unsigned djb2(const char *s) {
    unsigned h = 5381;
    int c;
    while ((c = (unsigned char)*s++) != 0) h = h * 33u + (unsigned)c;
    return h;
}

static void insert(unsigned long key) {
    unsigned i = (unsigned)((key * 11400714819323198485UL) >> (64 - TBITS));
    for (;;) {
        if (table[i].count == 0) { table[i].key = key; table[i].count = 1; return; }
        if (table[i].key == key) { table[i].count++; return; }
        i = (i + 1) & (TSIZE - 1);
    }
}

int main(int argc, char **argv) {
    long n = 2000000L;
    if (argc > 1) n = n * atol(argv[1]) / 100;
    char buf[64];
    unsigned long x = 12345, acc = 0;
    unsigned dj = 0;
    for (long i = 0; i < n; i++) {
        x = x * 6364136223846793005UL + 1442695040888963407UL;
        int len = 8 + (int)((x >> 33) % 40);
        unsigned long y = x;
        for (int k = 0; k < len; k++) {
            y ^= y >> 13; y ^= y << 7; y ^= y >> 17;
            buf[k] = (char)('a' + (int)(y % 26));
        }
        buf[len] = 0;
        unsigned long h = fnv1a(buf, (size_t)len);
        dj ^= djb2(buf);
        acc += h;
        insert(h % 40000u);
    }
    unsigned long t = 0;
    for (unsigned i = 0; i < TSIZE; i++) t = t * 131u + table[i].count + table[i].key;
    printf("hash %lu %u %lu\n", acc, dj, t);
    return 0;
}
