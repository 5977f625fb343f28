#include <stdio.h>

static int bsearch_int(const int *a, int n, int key) {
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (a[mid] == key) return mid;
        if (a[mid] < key) lo = mid + 1; else hi = mid - 1;
    }
    return -(lo + 1);
}
static unsigned long gcd(unsigned long a, unsigned long b) { while (b) { unsigned long t = a % b; a = b; b = t; } return a; }
static unsigned long long powmod(unsigned long long b, unsigned long long e, unsigned long long m) {
    unsigned long long r = 1;
    b %= m;
    while (e) { if (e & 1) r = r * b % m; b = b * b % m; e >>= 1; }
    return r;
}
static unsigned isqrt(unsigned long x) { unsigned long r = 0, bit = 1ul << 62; while (bit > x) bit >>= 2; while (bit) { if (x >= r + bit) { x -= r + bit; r = (r >> 1) + bit; } else r >>= 1; bit >>= 2; } return (unsigned)r; }

int main(void) {
    int a[50], i;
    for (i = 0; i < 50; i++) a[i] = i * i;
    printf("%d %d %d %d\n", bsearch_int(a, 50, 0), bsearch_int(a, 50, 49 * 49), bsearch_int(a, 50, 50), bsearch_int(a, 50, 1000000));
    printf("%lu %lu %lu\n", gcd(1071, 462), gcd(1ul << 40, 6ul << 20), gcd(17, 0));
    printf("%llu %llu\n", powmod(2, 1000, 1000000007), powmod(3, 123456789, 4294967291ull));
    printf("%u %u %u\n", isqrt(0), isqrt(99), isqrt(4000000000000ul));
    return 0;
}
