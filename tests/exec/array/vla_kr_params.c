#include <stdio.h>

/* K&R (old-style) definitions whose parameter declarations use an earlier-declared
   parameter in an array bound: the bound is evaluated at entry and gives the row size. */

static int kr_first_col(n, m) int n; int m[][n]; { return m[1][0]; }

/* Declared in another order than the identifier list names them. */
static long kr_sum(m, rows, cols) int rows, cols; long m[rows][cols];
{
    long s = 0;
    int i, j;
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++)
            s += m[i][j] * (i + 1);
    return s;
}

/* The row size as seen through sizeof and pointer arithmetic. */
static unsigned long kr_row_bytes(k, p) int k; short (*p)[k + 1];
{
    return (unsigned long)((char *)(p + 1) - (char *)p) * 100 + sizeof *p;
}

/* A bound with a side effect on the parameter, evaluated once at entry. */
static int kr_side(n, m) int n; int m[][n++]; { return n * 1000 + m[2][1]; }

int main(void)
{
    int a[2][3] = {{1, 2, 3}, {4, 5, 6}};
    long b[3][4];
    short c[2][5] = {{0}};
    int d[3][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}};
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++)
            b[i][j] = i * 10 + j;
    printf("%d\n", kr_first_col(3, a));
    printf("%ld\n", kr_sum(b, 3, 4));
    printf("%ld\n", kr_sum(b, 2, 6));
    printf("%lu\n", kr_row_bytes(4, c));
    printf("%d\n", kr_side(3, d));
    return 0;
}
