#include <stdio.h>

static int grid[3][4][5];

static int sum2(int m[][4], int rows) {
    int s = 0, i, j;
    for (i = 0; i < rows; i++)
        for (j = 0; j < 4; j++)
            s += m[i][j];
    return s;
}

int main(void) {
    int i, j, k;
    int m[3][4];
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++) {
            m[i][j] = i * 10 + j;
            for (k = 0; k < 5; k++)
                grid[i][j][k] = i * 100 + j * 10 + k;
        }
    printf("%d\n", sum2(m, 3));
    printf("%d %d\n", grid[2][3][4], grid[1][0][2]);
    printf("%d\n", *(*(*(grid + 1) + 2) + 3));
    printf("%d %d %d\n", (int)sizeof grid, (int)sizeof grid[0], (int)sizeof grid[0][0]);
    printf("%ld\n", (long)(&grid[1][0][0] - &grid[0][0][0]));
    printf("%ld\n", (long)(&m[2][1] - &m[0][0]));
    {
        int (*row)[4] = m;
        row++;
        printf("%d %d\n", (*row)[2], row[1][3]);
    }
    {
        int *flat = &m[0][0];
        printf("%d\n", flat[7]);
    }
    return 0;
}
