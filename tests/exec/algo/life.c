#include <stdio.h>
#include <string.h>

#define W 12
#define H 10

static char grid[H][W], next[H][W];

static int neighbours(int y, int x) {
    int dy, dx, n = 0;
    for (dy = -1; dy <= 1; dy++)
        for (dx = -1; dx <= 1; dx++)
            if ((dy || dx) && grid[(y + dy + H) % H][(x + dx + W) % W]) n++;
    return n;
}

int main(void) {
    int gen, y, x;
    grid[1][2] = grid[2][3] = grid[3][1] = grid[3][2] = grid[3][3] = 1; /* glider */
    grid[6][7] = grid[6][8] = grid[6][9] = 1; /* blinker */
    for (gen = 0; gen < 9; gen++) {
        for (y = 0; y < H; y++)
            for (x = 0; x < W; x++) {
                int n = neighbours(y, x);
                next[y][x] = grid[y][x] ? (n == 2 || n == 3) : n == 3;
            }
        memcpy(grid, next, sizeof grid);
    }
    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) putchar(grid[y][x] ? '#' : '.');
        putchar('\n');
    }
    return 0;
}
