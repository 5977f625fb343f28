#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct msg { int len; char text[]; };
struct vec { size_t n; double items[]; };

static struct msg *make(const char *s) {
    size_t n = strlen(s);
    struct msg *m = malloc(sizeof *m + n + 1);
    m->len = (int)n;
    memcpy(m->text, s, n + 1);
    return m;
}

int main(void) {
    struct msg *m = make("flexible");
    struct vec *v;
    size_t i;
    printf("%d %s %d\n", m->len, m->text, (int)sizeof(struct msg));
    v = malloc(sizeof *v + 5 * sizeof(double));
    v->n = 5;
    for (i = 0; i < v->n; i++) v->items[i] = i * 1.5;
    for (i = 0; i < v->n; i++) printf("%g ", v->items[i]);
    printf("\n%d\n", (int)sizeof(struct vec));
    free(m);
    free(v);
    return 0;
}
