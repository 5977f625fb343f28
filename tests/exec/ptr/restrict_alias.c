#include <stdio.h>

static void add_into(int *dst, const int *src, int n) {
    int i;
    for (i = 0; i < n; i++) dst[i] += src[i];
}

static void scale(float *restrict out, const float *restrict in, int n, float k) {
    int i;
    for (i = 0; i < n; i++) out[i] = in[i] * k;
}

int main(void) {
    int a[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    float f[4] = { 1, 2, 3, 4 }, g[4];
    int i;
    /* overlapping source and destination: must read after each write */
    add_into(a + 1, a, 7);
    for (i = 0; i < 8; i++) printf("%d ", a[i]);
    printf("\n");
    scale(g, f, 4, 2.5f);
    for (i = 0; i < 4; i++) printf("%g ", g[i]);
    printf("\n");
    {
        int x = 1;
        int *p = &x, *q = &x;
        *p = 5;
        *q += 1;
        printf("%d\n", *p);
    }
    return 0;
}
