#include <stdio.h>

typedef void (*visit_fn)(void *ctx, int value);

static void each(const int *a, int n, visit_fn f, void *ctx) { int i; for (i = 0; i < n; i++) f(ctx, a[i]); }

struct stats { long sum; int min, max, count; };
static void collect(void *ctx, int v) {
    struct stats *s = ctx;
    if (!s->count || v < s->min) s->min = v;
    if (!s->count || v > s->max) s->max = v;
    s->sum += v;
    s->count++;
}
static void print_one(void *ctx, int v) { printf("%s%d", (const char *)ctx, v); }

int main(void) {
    int data[] = { 4, -2, 17, 9, 0, -11, 5 };
    struct stats st = { 0, 0, 0, 0 };
    each(data, 7, collect, &st);
    printf("%ld %d %d %d\n", st.sum, st.min, st.max, st.count);
    each(data, 7, print_one, (void *)" ");
    printf("\n");
    return 0;
}
