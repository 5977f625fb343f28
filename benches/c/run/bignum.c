/* bignum: arbitrary-precision arithmetic on 32-bit limbs -- factorial and a
   Fibonacci number by repeated addition, checksummed over the limbs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { unsigned *d; int n, cap; } big;

static void big_init(big *b, int cap, unsigned v) {
    b->d = calloc((size_t)cap, sizeof(unsigned)); b->cap = cap; b->n = 1; b->d[0] = v;
}

static void big_mul_small(big *b, unsigned m) {
    unsigned long long carry = 0;
    for (int i = 0; i < b->n; i++) {
        unsigned long long t = (unsigned long long)b->d[i] * m + carry;
        b->d[i] = (unsigned)t; carry = t >> 32;
    }
    if (carry) b->d[b->n++] = (unsigned)carry;
}

static void big_add(big *r, const big *a, const big *b) { /* r = a + b, r may alias neither */
    int n = a->n > b->n ? a->n : b->n;
    unsigned long long carry = 0;
    for (int i = 0; i < n; i++) {
        unsigned long long t = carry;
        if (i < a->n) t += a->d[i];
        if (i < b->n) t += b->d[i];
        r->d[i] = (unsigned)t; carry = t >> 32;
    }
    r->n = n;
    if (carry) r->d[r->n++] = (unsigned)carry;
}

static unsigned big_mod_small(const big *b, unsigned m) {
    unsigned long long r = 0;
    for (int i = b->n - 1; i >= 0; i--) r = ((r << 32) | b->d[i]) % m;
    return (unsigned)r;
}

static unsigned big_hash(const big *b) {
    unsigned h = 2166136261u;
    for (int i = 0; i < b->n; i++) h = (h ^ b->d[i]) * 16777619u;
    return h;
}

int main(int argc, char **argv) {
    int scale = 100;
    if (argc > 1) scale = atoi(argv[1]);
    int nf = 20000 * scale / 100, nfib = 100000 * scale / 100;
    big f; big_init(&f, nf + 16, 1);
    for (int i = 2; i <= nf; i++) big_mul_small(&f, (unsigned)i);
    big x, y, z; int cap = nfib / 40 + 16;
    big_init(&x, cap, 0); big_init(&y, cap, 1); big_init(&z, cap, 0);
    for (int i = 0; i < nfib; i++) {
        big_add(&z, &x, &y);
        big t = x; x = y; y = z; z = t;
    }
    printf("bignum %d %u %u %d %u %u\n", f.n, big_hash(&f), big_mod_small(&f, 1000000007u),
           x.n, big_hash(&x), big_mod_small(&x, 998244353u));
    return 0;
}
