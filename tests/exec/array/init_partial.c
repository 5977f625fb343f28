#include <stdio.h>

int main(void) {
    int a[10] = { 1, 2, 3 };
    int b[] = { 5, 6, 7, 8 };
    char s[10] = "hi";
    int m[3][3] = { { 1 }, { 2, 3 }, { 4, 5, 6 } };
    int flat[2][3] = { 1, 2, 3, 4 };
    int i, j;
    for (i = 0; i < 10; i++) printf("%d ", a[i]);
    printf("\n%d\n", (int)(sizeof b / sizeof b[0]));
    for (i = 0; i < 10; i++) printf("%d ", s[i]);
    printf("\n");
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            printf("%d%c", m[i][j], j == 2 ? '\n' : ' ');
    for (i = 0; i < 2; i++)
        for (j = 0; j < 3; j++)
            printf("%d%c", flat[i][j], j == 2 ? '\n' : ' ');
    return 0;
}
