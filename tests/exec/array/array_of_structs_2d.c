#include <stdio.h>

struct cell { char ch; int weight; };

int main(void) {
    struct cell board[4][5];
    int r, c, total = 0;
    for (r = 0; r < 4; r++)
        for (c = 0; c < 5; c++) { board[r][c].ch = (char)('a' + r * 5 + c); board[r][c].weight = (r - c) * (r + c); }
    for (r = 0; r < 4; r++) {
        for (c = 0; c < 5; c++) { putchar(board[r][c].ch); total += board[r][c].weight; }
        putchar('\n');
    }
    printf("%d %d %d\n", total, (int)sizeof board, (int)sizeof board[1]);
    {
        struct cell (*row)[5] = &board[2];
        printf("%c %d\n", (*row)[4].ch, (*row)[4].weight);
    }
    return 0;
}
