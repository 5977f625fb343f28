/* Variably modified typedefs (the size is evaluated once, where the typedef is reached:
   C17 6.7.8p3), sizeof of VLA type names, and size expressions with side effects:
   evaluated exactly once, innermost dimension first as gcc does. */
#include <stdio.h>

static char trace[64];
static int ntrace;
static int note(int tag, int v) {
    trace[ntrace++] = (char)('0' + tag);
    return v;
}

int main(void) {
    int n = 4;
    typedef int Row[n];
    n = 9;
    Row a, b[3];
    printf("%d %d %d\n", (int)sizeof(Row), (int)sizeof a, (int)sizeof b);
    for (int i = 0; i < 4; i++)
        a[i] = i + 1;
    b[2][3] = 40;
    printf("%d %d %td\n", a[3], b[2][3], (char *)&b[2] - (char *)b);
    Row *pr = b;
    pr++;
    printf("%td %d\n", (char *)pr - (char *)b, (int)sizeof *pr);

    /* A typedef inside a loop: evaluated anew each time it is reached. */
    for (int k = 1; k <= 3; k++) {
        typedef double Vec[k][k + 1];
        Vec v;
        printf("%d %d ", (int)sizeof(Vec), (int)sizeof v[0]);
    }
    printf("\n");

    int r = 3, c = 7;
    printf("%d %d %d\n", (int)sizeof(int[r][c]), (int)sizeof(char[r + c]),
           (int)sizeof(short[2][c]));

    /* Side effects in sizes: once, at the declaration. */
    int i = 2, j = 3;
    int m[i++][j++];
    printf("%d %d %d %d\n", i, j, (int)sizeof m, (int)sizeof m[0]);
    m[1][2] = 5;
    printf("%d %d %d\n", i, j, m[1][2]);

    /* Evaluation order of the dimensions. */
    int t[note(1, 2)][note(2, 3)][note(3, 4)];
    int (*pt[note(4, 2)])[note(5, 5)];
    typedef int TT[note(6, 1)][note(7, 2)];
    size_t s = sizeof(long[note(8, 3)][note(9, 2)]);
    trace[ntrace] = 0;
    printf("%s %d %d %d %d\n", trace, (int)sizeof t, (int)sizeof pt, (int)sizeof(TT),
           (int)s);

    /* sizeof of an expression of VLA type evaluates it; of a fixed type it does not. */
    int (*q)[j] = 0;
    int before = i;
    size_t z = sizeof q[i++];
    printf("%d %d %d\n", (int)z, before, i);
    size_t y = sizeof(i++);
    printf("%d %d\n", (int)y, i);

    /* typeof of a VLA type name (evaluated at the declaration) and of a VLA object. */
    int u = 5;
    __typeof__(int[u][2]) tv;
    __typeof__(tv) tw;
    u = 1;
    tw[4][1] = 3;
    printf("%d %d %d\n", (int)sizeof tv, (int)sizeof tw[0], tw[4][1]);
    return 0;
}
