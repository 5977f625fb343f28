/* recurse: call-heavy recursion -- fib, ackermann, tak and a naive n-queens. */
#include <stdio.h>
#include <stdlib.h>

static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static int ack(int m, int n) {
    if (m == 0) return n + 1;
    if (n == 0) return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

static int tak(int x, int y, int z) {
    if (y >= x) return z;
    return tak(tak(x - 1, y, z), tak(y - 1, z, x), tak(z - 1, x, y));
}

static int queens(int n, int row, unsigned cols, unsigned d1, unsigned d2) {
    if (row == n) return 1;
    int count = 0;
    for (int c = 0; c < n; c++) {
        unsigned a = 1u << c, b = 1u << (row + c), d = 1u << (row - c + n);
        if ((cols & a) || (d1 & b) || (d2 & d)) continue;
        count += queens(n, row + 1, cols | a, d1 | b, d2 | d);
    }
    return count;
}

int main(int argc, char **argv) {
    int scale = 100;
    if (argc > 1) scale = atoi(argv[1]);
    int fn = scale >= 100 ? 36 : 30;
    long f = fib(fn);
    int a = ack(2, 3000) + ack(3, scale >= 100 ? 8 : 6);
    int t = tak(scale >= 100 ? 30 : 24, 20, 10);
    int q = queens(scale >= 100 ? 11 : 9, 0, 0, 0, 0);
    printf("recurse %ld %d %d %d\n", f, a, t, q);
    return 0;
}
