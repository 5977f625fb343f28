#include <stdio.h>

struct kv { const char *k; int v; double w; };

static struct kv table[] = {
    { "one", 1, 1.5 },
    { "two", 2, 2.5 },
    { .k = "three", .w = 3.5 },
    { "four", 4 },
};

int main(void) {
    int i;
    struct kv local[2] = { { "x", -1, 0.25 }, table[1] };
    for (i = 0; i < (int)(sizeof table / sizeof table[0]); i++)
        printf("%s %d %g\n", table[i].k, table[i].v, table[i].w);
    for (i = 0; i < 2; i++)
        printf("%s %d %g\n", local[i].k, local[i].v, local[i].w);
    return 0;
}
