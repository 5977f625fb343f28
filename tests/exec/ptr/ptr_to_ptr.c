#include <stdio.h>

static void set(int **pp, int *target) { *pp = target; }
static void bump(int ***ppp) { (**ppp)++; }

int main(void) {
    int x = 10, y = 20;
    int *p = &x;
    int **pp = &p;
    int ***ppp = &pp;
    printf("%d\n", **pp);
    set(pp, &y);
    printf("%d %d\n", *p, ***ppp);
    ***ppp = 25;
    printf("%d\n", y);
    {
        int arr[3] = { 1, 2, 3 };
        int *q = arr;
        int **qq = &q;
        bump(&qq);
        printf("%d\n", *q);
    }
    {
        const char *words[] = { "alpha", "beta", "gamma" };
        const char **w = words;
        printf("%s %c %c\n", *(w + 1), **w, *(*(w + 2) + 3));
    }
    return 0;
}
