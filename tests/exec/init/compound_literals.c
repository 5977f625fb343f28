#include <stdio.h>

struct pt { int x, y; };

static int dist2(struct pt a, struct pt b) { return (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y); }
static int sum(const int *a, int n) { int s = 0; while (n--) s += a[n]; return s; }
static struct pt *gp = &(struct pt){ 5, 6 };

int main(void) {
    struct pt *p = &(struct pt){ 1, 2 };
    int i;
    printf("%d\n", dist2((struct pt){ 0, 0 }, (struct pt){ 3, 4 }));
    printf("%d\n", sum((int[]){ 1, 2, 3, 4, 5 }, 5));
    p->x = 10;
    printf("%d %d\n", p->x, p->y);
    printf("%d %d\n", gp->x, gp->y);
    for (i = 0; i < 3; i++) {
        int *arr = (int[3]){ i, i * 2, i * 3 };
        printf("%d ", arr[2]);
    }
    printf("\n%s\n", (char[]){ 'o', 'k', 0 });
    printf("%g\n", ((double[]){ 1.5, 2.5 })[1]);
    return 0;
}
