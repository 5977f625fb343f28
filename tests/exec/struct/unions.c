#include <stdio.h>

union num { int i; float f; unsigned char b[4]; };
union wide { char c; double d; long l; };
struct tagged { int kind; union { int i; double d; const char *s; } u; };

static void show(struct tagged t) {
    if (t.kind == 0) printf("int %d\n", t.u.i);
    else if (t.kind == 1) printf("double %g\n", t.u.d);
    else printf("str %s\n", t.u.s);
}

int main(void) {
    union num n;
    struct tagged ts[3];
    n.f = 1.0f;
    printf("%08x %d %d %d %d\n", n.i, n.b[0], n.b[1], n.b[2], n.b[3]);
    n.i = 0x40490fdb;
    printf("%.6f\n", n.f);
    printf("%d %d\n", (int)sizeof(union num), (int)sizeof(union wide));
    ts[0].kind = 0; ts[0].u.i = 42;
    ts[1].kind = 1; ts[1].u.d = 2.75;
    ts[2].kind = 2; ts[2].u.s = "hello";
    show(ts[0]); show(ts[1]); show(ts[2]);
    {
        union wide w = { 'A' };
        printf("%c\n", w.c);
        w.l = -1;
        printf("%d\n", w.c);
    }
    {
        union num init = { .f = -2.0f };
        printf("%08x\n", init.i);
    }
    return 0;
}
