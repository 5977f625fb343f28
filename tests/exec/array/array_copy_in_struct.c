#include <stdio.h>

struct wrap { int v[6]; };

static struct wrap doubled(struct wrap w) { int i; for (i = 0; i < 6; i++) w.v[i] *= 2; return w; }

int main(void) {
    struct wrap a = { { 1, 2, 3, 4, 5, 6 } }, b;
    int i;
    b = doubled(a);
    a.v[0] = 100;
    for (i = 0; i < 6; i++) printf("%d/%d ", a.v[i], b.v[i]);
    printf("\n");
    {
        struct wrap arr[2] = { a, b };
        arr[1] = arr[0];
        arr[0].v[5] = -1;
        printf("%d %d\n", arr[1].v[5], arr[0].v[5]);
    }
    return 0;
}
