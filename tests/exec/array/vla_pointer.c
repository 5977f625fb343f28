/* Pointers to variable length arrays as locals: allocation by sizeof(int[n]), indexing,
   ++/--/+=, differences divided by the run-time size, comparisons, sizeof *p, casts
   to a VM pointer type, and a pointer to a 2-D VLA. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int rows = 5, n = 3;
    int (*p)[n] = malloc(sizeof(int[n]) * rows);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < n; j++)
            p[i][j] = i * 10 + j;
    printf("%d %d %d\n", (int)sizeof *p, (int)sizeof p[0][0], (int)sizeof(int[n]));
    printf("%d %d\n", p[4][2], p[2][1]);

    int (*q)[n] = p;
    q++;
    q += 2;
    printf("%d %td %td\n", q[0][0], q - p, p - q);
    q--;
    printf("%d %d %d\n", **q, (*q)[2], (q < p + 3) + (q == p + 2) * 2);
    long sum = 0;
    for (int (*it)[n] = p; it != p + rows; ++it)
        sum += (*it)[n - 1];
    printf("%ld\n", sum);
    printf("%td\n", (char *)(p + rows) - (char *)p);

    /* A cast to a VM pointer type: a flat buffer seen as rows of k. */
    int k = 4;
    int buf[12];
    for (int i = 0; i < 12; i++)
        buf[i] = i * i;
    printf("%d %d\n", ((int (*)[k])buf)[2][1], (*((int (*)[k])buf + 1))[3]);
    int (*r)[k] = (int (*)[k])buf;
    printf("%d %td %d\n", r[1][2], &r[2][0] - buf, (int)sizeof r[1]);

    /* A pointer to a whole 2-D VLA, and an array of pointers to VLAs. */
    int h = 2, w = 3;
    int grid[h][w];
    int (*g)[h][w] = &grid;
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++)
            (*g)[i][j] = 7 * i + j;
    printf("%d %d %d\n", (int)sizeof *g, (int)sizeof (*g)[1], grid[1][2]);
    printf("%td\n", (char *)(g + 1) - (char *)g);
    int (*rows_of[2])[w];
    rows_of[0] = grid;
    rows_of[1] = grid + 1;
    printf("%d %d %td\n", rows_of[1][0][1], rows_of[0][1][2], rows_of[1] - rows_of[0]);

    /* n changes: p keeps the size of its declaration. */
    n = 50;
    printf("%d %d\n", (int)sizeof *p, p[1][0]);
    free(p);
    return 0;
}
