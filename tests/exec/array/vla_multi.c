/* Multi-dimensional variable length arrays: any dimension variable, sizeof of the
   array and of its rows, indexing, &m[i], m + 1, passing to functions, a VLA of a
   fixed array and a fixed array of VLAs, re-declaration in a loop with new sizes. */
#include <stdio.h>
#include <stddef.h>

static long sum2(int r, int c, int m[r][c]) {
    long s = 0;
    for (int i = 0; i < r; i++)
        for (int j = 0; j < c; j++)
            s += m[i][j] * (i + 1);
    return s;
}

static double trace3(int n, int k, double a[n][4][k]) {
    double t = 0;
    for (int i = 0; i < n; i++)
        t += a[i][i % 4][i % k];
    return t;
}

int main(void) {
    int r = 3, c = 5;
    int m[r][c];
    for (int i = 0; i < r; i++)
        for (int j = 0; j < c; j++)
            m[i][j] = i * 100 + j;
    printf("%d %d %d\n", (int)sizeof m, (int)sizeof m[0], (int)sizeof m[0][0]);
    printf("%d %d %d\n", m[2][4], m[1][3], m[0][0]);
    printf("%ld\n", sum2(r, c, m));
    printf("%td %td\n", (char *)&m[2] - (char *)m, (char *)(m + 1) - (char *)m);
    printf("%td %td\n", &m[2][1] - &m[0][0], (m + 2) - m);
    printf("%d %d\n", *(*(m + 1) + 2), (*(m + 2))[3]);
    {
        int (*row)[c] = m;
        row++;
        printf("%d %d\n", (*row)[0], row[1][4]);
    }

    /* Three dimensions, the middle one fixed. */
    int n = 6, k = 3;
    double a[n][4][k];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 4; j++)
            for (int l = 0; l < k; l++)
                a[i][j][l] = i + j * 0.5 + l * 0.25;
    printf("%d %d %d %d\n", (int)sizeof a, (int)sizeof a[1], (int)sizeof a[1][2],
           (int)sizeof a[1][2][0]);
    printf("%.2f %.2f\n", a[5][3][2], trace3(n, k, a));
    printf("%td\n", (char *)&a[4][1][2] - (char *)a);

    /* A fixed dimension outside a variable one, and a VLA of structs. */
    struct pt { short x, y; };
    int w = 7;
    struct pt g[2][w];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < w; j++) {
            g[i][j].x = (short)(i * 10 + j);
            g[i][j].y = (short)-j;
        }
    printf("%d %d %d %d\n", (int)sizeof g, (int)sizeof g[1], g[1][6].x, g[0][5].y);

    /* Sizes follow each execution of the declaration. */
    long total = 0;
    for (int s = 1; s <= 4; s++) {
        char b[s][s + 1];
        for (int i = 0; i < s; i++)
            for (int j = 0; j <= s; j++)
                b[i][j] = (char)(i + j);
        total += sizeof b * 100 + b[s - 1][s];
        printf("%d %d\n", (int)sizeof b, (int)sizeof b[0]);
    }
    printf("%ld\n", total);

    /* The size is the declaration's: a later change of the bound does not change it. */
    int d = 4;
    int v[d][d];
    d = 100;
    printf("%d %d\n", (int)sizeof v, (int)sizeof v[3]);
    /* Alignment is the element type's. */
    printf("%d %d\n", (int)_Alignof(double[n][k]), (int)(((size_t)a) % _Alignof(double) == 0));
    return 0;
}
