#include <stdio.h>

static int find(int m[3][3], int target, int *ri, int *ci) {
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            if (m[i][j] == target) goto found;
    return 0;
found:
    *ri = i;
    *ci = j;
    return 1;
}

int main(void) {
    int m[3][3] = { { 1, 2, 3 }, { 4, 5, 6 }, { 7, 8, 9 } };
    int r = -1, c = -1, n = 0;
    printf("%d", find(m, 6, &r, &c));
    printf(" %d %d\n", r, c);
    printf("%d\n", find(m, 10, &r, &c));
again:
    n++;
    if (n < 5) goto again;
    printf("%d\n", n);
    goto skip;
    printf("not printed\n");
skip:
    {
        int i = 0;
    loop:
        if (i >= 3) goto done;
        printf("i%d ", i);
        i++;
        goto loop;
    done:
        printf("\n");
    }
    return 0;
}
