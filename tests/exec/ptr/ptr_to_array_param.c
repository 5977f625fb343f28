#include <stdio.h>

static void transpose(int (*m)[3], int (*out)[3]) {
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) out[j][i] = m[i][j];
}

static int trace(const int (*m)[3]) { return m[0][0] + m[1][1] + m[2][2]; }

int main(void) {
    int m[3][3] = { { 1, 2, 3 }, { 4, 5, 6 }, { 7, 8, 9 } }, t[3][3];
    int i, j;
    transpose(m, t);
    for (i = 0; i < 3; i++) { for (j = 0; j < 3; j++) printf("%d ", t[i][j]); printf("\n"); }
    printf("%d\n", trace((const int (*)[3])t));
    {
        int (*p)[3] = m + 1;
        printf("%d %d %ld\n", **p, p[1][2], (long)(p - m));
    }
    return 0;
}
