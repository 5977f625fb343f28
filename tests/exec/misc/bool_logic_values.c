#include <stdio.h>

int main(void) {
    int vals[] = { 0, 1, -1, 2, 100 };
    int i, j;
    for (i = 0; i < 5; i++) {
        for (j = 0; j < 5; j++) {
            int a = vals[i], b = vals[j];
            printf("%d%d%d%d%d ", a && b, a || b, !a, !!b, (a != 0) ^ (b != 0));
        }
        printf("\n");
    }
    {
        double d = 0.1;
        char *p = "";
        printf("%d %d %d\n", !d, !p, !*p);
        int flag = (d > 0) + (d < 1) * 2 + (p != 0) * 4;
        printf("%d\n", flag);
    }
    return 0;
}
