#include <stdio.h>

union val { int i; float f; char s[8]; };
static union val a = { 42 };
static union val b = { .f = 1.5f };
static union val c = { .s = "union" };
static union val arr[3] = { { 1 }, { .f = 2.0f }, { .s = "x" } };
struct holder { int tag; union val v; };
static struct holder h = { 2, { .f = -0.5f } };

int main(void) {
    printf("%d %g %s\n", a.i, b.f, c.s);
    printf("%d %g %s\n", arr[0].i, arr[1].f, arr[2].s);
    printf("%d %g %d\n", h.tag, h.v.f, (int)sizeof h);
    return 0;
}
