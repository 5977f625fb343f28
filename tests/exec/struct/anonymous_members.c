#include <stdio.h>

struct V {
    int kind;
    union {
        struct { float x, y, z; };
        float xyz[3];
    };
    struct { int a; int b; };
};

int main(void) {
    struct V v;
    v.kind = 1;
    v.x = 1.5f; v.y = 2.5f; v.z = -1.0f;
    v.a = 7; v.b = 8;
    printf("%g %g %g\n", v.xyz[0], v.xyz[1], v.xyz[2]);
    v.xyz[1] = 10;
    printf("%g %d %d %d\n", v.y, v.a + v.b, v.kind, (int)sizeof v);
    {
        struct V w = { .kind = 2, .y = 4, .b = 9 };
        printf("%g %g %d %d\n", w.x, w.y, w.a, w.b);
    }
    return 0;
}
