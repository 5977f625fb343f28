#include <stdio.h>

struct shape {
    const char *name;
    double (*area)(const struct shape *);
    double a, b;
};

static double rect_area(const struct shape *s) { return s->a * s->b; }
static double tri_area(const struct shape *s) { return s->a * s->b / 2; }

struct vtable { int (*get)(void *); void (*set)(void *, int); };
static int get_int(void *p) { return *(int *)p; }
static void set_int(void *p, int v) { *(int *)p = v; }
static const struct vtable int_vt = { get_int, set_int };

int main(void) {
    struct shape shapes[] = { { "rect", rect_area, 3, 4 }, { "tri", tri_area, 3, 4 } };
    int i, storage = 0;
    const struct vtable *vt = &int_vt;
    for (i = 0; i < 2; i++) printf("%s %g\n", shapes[i].name, shapes[i].area(&shapes[i]));
    vt->set(&storage, 55);
    printf("%d %d\n", vt->get(&storage), storage);
    return 0;
}
