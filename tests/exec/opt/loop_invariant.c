#include <stdio.h>

static int __attribute__((noinline)) sum_scaled(const int *a, int n, int k, int m) {
    int i, s = 0;
    for (i = 0; i < n; i++) s += a[i] * (k * m + 3);
    return s;
}

static void __attribute__((noinline)) fill(int *dst, const int *len, int n) {
    int i;
    for (i = 0; i < *len; i++) dst[i] = n + i;   /* *len may change through dst */
}

int main(void) {
    int a[10], buf[12], i;
    for (i = 0; i < 10; i++) a[i] = i - 4;
    printf("%d\n", sum_scaled(a, 10, 3, 5));
    buf[3] = 6;
    fill(buf, &buf[3], 1);
    for (i = 0; i < 6; i++) printf("%d ", buf[i]);
    printf("\n");
    {
        int n = 0, j;
        for (j = 0; j < 100; j++) {
            int t = j * 2;
            if (t > 150) break;
            n += t;
        }
        printf("%d %d\n", n, j);
    }
    return 0;
}
