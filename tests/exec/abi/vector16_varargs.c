/* 16-byte vectors and records holding one as variadic arguments: passed in one
   xmm register each while registers last (va_arg reads the whole 16-byte slot of
   the register save area), then in the overflow area. */
#include <stdarg.h>
#include <stdio.h>

typedef float V4F __attribute__((vector_size(16)));
typedef double V2D __attribute__((vector_size(16)));
typedef int V4I __attribute__((vector_size(16)));
struct SV { V4F v; };

double sum(int n, ...) {
    va_list ap;
    va_start(ap, n);
    double s = 0;
    for (int i = 0; i < n; i++) {
        switch (i % 4) {
        case 0: { V4F v = va_arg(ap, V4F); s += v[0] + 2 * v[1] + 3 * v[2] + 4 * v[3]; break; }
        case 1: { V2D d = va_arg(ap, V2D); s += d[0] - d[1]; break; }
        case 2: { double x = va_arg(ap, double); s += x * 10; break; }
        default: { struct SV r = va_arg(ap, struct SV); s += r.v[3] * 100; break; }
        }
    }
    va_end(ap);
    return s;
}

int ints(int n, ...) {
    va_list ap;
    va_start(ap, n);
    int s = 0;
    for (int i = 0; i < n; i++) {
        V4I v = va_arg(ap, V4I);
        s = s * 3 + v[0] - v[1] + v[2] * v[3];
    }
    va_end(ap);
    return s;
}

int main(void) {
    V4F v = { 1, 2, 3, 4 };
    V2D d = { 7.5, 0.25 };
    struct SV r = { { 9, 8, 7, 6 } };
    printf("sum4 %g\n", sum(4, v, d, 0.5, r));
    printf("sum12 %g\n", sum(12, v, d, 0.5, r, v, d, 1.5, r, v, d, 2.5, r));
    V4I a = { 1, 2, 3, 4 }, b = { -5, 6, 7, 8 };
    printf("ints %d\n", ints(10, a, b, a, b, a, b, a, b, a, b));
    return 0;
}
