#include <stdio.h>

static int solutions;
static int cols[12];

static int ok(int row, int col) {
    int r;
    for (r = 0; r < row; r++) {
        int c = cols[r];
        if (c == col || c - col == r - row || c - col == row - r) return 0;
    }
    return 1;
}

static void place(int row, int n) {
    int c;
    if (row == n) { solutions++; return; }
    for (c = 0; c < n; c++)
        if (ok(row, c)) { cols[row] = c; place(row + 1, n); }
}

int main(void) {
    int n;
    for (n = 1; n <= 8; n++) { solutions = 0; place(0, n); printf("%d:%d ", n, solutions); }
    printf("\n");
    return 0;
}
