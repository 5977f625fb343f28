/* VLA parameters: `int m[rows][cols]`, `int m[][cols]`, `int (*m)[cols]`, `[*]` in
   prototypes, a size read from a later-adjusted parameter, sizes with side effects
   evaluated once at entry, and sizeof of a parameter's rows. */
#include <stdio.h>

void fill(int rows, int cols, int m[rows][cols]);
long weigh(int rows, int cols, int m[*][*]);
static int row_bytes(int cols, int (*m)[cols]) { return (int)sizeof *m + (int)sizeof m[0][0]; }

void fill(int rows, int cols, int m[rows][cols]) {
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            m[i][j] = i * cols + j;
}

long weigh(int rows, int cols, int m[][cols]) {
    long s = 0;
    for (int (*p)[cols] = m; p < m + rows; p++)
        for (int j = 0; j < cols; j++)
            s += (*p)[j] * (long)(p - m + 1);
    return s;
}

/* Three dimensions through a pointer parameter. */
static int corner(int a, int b, int c, short (*x)[b][c]) {
    return x[a - 1][b - 1][c - 1] + (int)sizeof x[0] + (int)sizeof x[0][0];
}

static int calls;
static int size_of(int n) {
    calls++;
    return n;
}

/* The size expression has a side effect: evaluated once, at entry. */
static int once(int n, int m[size_of(n)][size_of(n + 1)]) {
    return m[1][n] + (int)sizeof m[0];
}

/* A bound that is the second parameter. */
static void transpose(int n, int k, const int src[n][k], int dst[k][n]) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < k; j++)
            dst[j][i] = src[i][j];
}

int main(void) {
    int m[4][6];
    fill(4, 6, m);
    printf("%d %d %d\n", m[3][5], m[2][0], m[1][4]);
    printf("%ld\n", weigh(4, 6, m));
    printf("%d\n", row_bytes(6, m));

    int r = 3, c = 5;
    int v[r][c];
    fill(r, c, v);
    printf("%d %ld %d\n", v[2][4], weigh(r, c, v), row_bytes(c, v));

    short x[2][3][4];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            for (int l = 0; l < 4; l++)
                x[i][j][l] = (short)(i * 100 + j * 10 + l);
    printf("%d\n", corner(2, 3, 4, x));

    int w[3][4];
    fill(3, 4, w);
    int o = once(3, w);
    printf("%d %d\n", o, calls);

    int t[4][2];
    transpose(2, 4, (const int (*)[4])w, t);
    printf("%d %d %d\n", t[3][1], t[0][1], t[2][0]);
    return 0;
}
