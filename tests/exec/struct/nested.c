#include <stdio.h>

struct point { int x, y; };
struct rect { struct point tl, br; char name[8]; };
struct shape { int kind; struct rect r; struct { double w; double h; } dims; };

static int area(struct rect r) { return (r.br.x - r.tl.x) * (r.br.y - r.tl.y); }

int main(void) {
    struct shape s = { 1, { { 0, 0 }, { 4, 5 }, "box" }, { 2.5, 3.5 } };
    struct shape t;
    struct rect *rp = &s.r;
    printf("%d %s %d\n", area(s.r), s.r.name, rp->br.y);
    rp->tl.x = 1;
    printf("%d\n", area(*rp));
    t = s;
    t.r.name[0] = 'B';
    t.dims.w *= 2;
    printf("%s %s %g %g\n", s.r.name, t.r.name, s.dims.w, t.dims.w);
    printf("%d %d\n", (int)sizeof(struct rect), (int)sizeof(struct shape));
    return 0;
}
