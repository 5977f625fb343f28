#include <stdio.h>

static int sum(int n, int a[n]) { int s = 0, i; for (i = 0; i < n; i++) s += a[i]; return s; }

static void fill(int rows, int cols, int m[rows][cols]) {
    int i, j;
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++)
            m[i][j] = i * cols + j;
}

int main(void) {
    int n;
    for (n = 1; n <= 5; n++) {
        int v[n];
        int i;
        for (i = 0; i < n; i++) v[i] = i * 3;
        printf("%d %d\n", sum(n, v), (int)sizeof v);
    }
    {
        int r = 3, c = 4;
        int m[r][c];
        fill(r, c, m);
        printf("%d %d %d\n", m[2][3], m[1][0], (int)sizeof m);
    }
    return 0;
}
