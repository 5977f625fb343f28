#include <stdio.h>

static int trace[16], nt;
static int rec(int v) { trace[nt++] = v; return v; }

int main(void) {
    int i, x;
    /* sequenced: && || , ?: */
    x = (rec(1), rec(2)) + 0;
    x = rec(3) && rec(4);
    x = rec(0) || rec(5);
    x = rec(6) ? rec(7) : rec(8);
    for (i = 0; i < nt; i++) printf("%d ", trace[i]);
    printf("\n%d\n", x);
    {
        int a = 1;
        a = (a++, a + 5), a += 10;
        printf("%d\n", a);
    }
    return 0;
}
