#include <stdio.h>

struct color { unsigned char r, g, b; };
struct style { const char *name; struct color fg, bg; int flags[3]; };
struct theme { int n; struct style styles[3]; };

static const struct theme t = {
    3,
    {
        { "normal", { 255, 255, 255 }, { 0, 0, 0 }, { 1 } },
        { "error", { 255, 0, 0 }, { 0 }, { 1, 2, 3 } },
        { .name = "dim", .fg.g = 128, .flags[2] = 9 },
    },
};

int main(void) {
    int i;
    for (i = 0; i < t.n; i++) {
        const struct style *s = &t.styles[i];
        printf("%s fg=%d,%d,%d bg=%d,%d,%d flags=%d,%d,%d\n", s->name, s->fg.r, s->fg.g, s->fg.b, s->bg.r, s->bg.g,
               s->bg.b, s->flags[0], s->flags[1], s->flags[2]);
    }
    {
        struct style local = t.styles[1];
        local.fg.g = 99;
        printf("%d %d\n", local.fg.g, t.styles[1].fg.g);
    }
    return 0;
}
