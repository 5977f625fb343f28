#include <stdio.h>

int main(void) {
    int a = 1, b = 2, c = 3;
    int *ptrs[3] = { &a, &b, &c };
    int rows0[] = { 1, 2 }, rows1[] = { 3, 4, 5 }, rows2[] = { 6 };
    int *jag[] = { rows0, rows1, rows2 };
    int lens[] = { 2, 3, 1 };
    int i, j;
    for (i = 0; i < 3; i++) *ptrs[i] *= 10;
    printf("%d %d %d\n", a, b, c);
    for (i = 0; i < 3; i++) {
        for (j = 0; j < lens[i]; j++) printf("%d ", jag[i][j]);
        printf("\n");
    }
    {
        int (*pa)[3];
        int m[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };
        pa = m;
        printf("%d\n", pa[1][1]);
    }
    return 0;
}
