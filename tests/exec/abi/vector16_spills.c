/* A function holding a 16-byte vector in an xmm register spills its float values
   in 16-byte slots: scalars and vectors live across calls (no xmm register
   survives a call) must come back intact. */
#include <stdio.h>

typedef float V4F __attribute__((vector_size(16)));
typedef double V2D __attribute__((vector_size(16)));

float id(float x) { return x; }
double idd(double x) { return x; }
V4F idv(V4F v) { return v; }

float scalars(V4F a, float b, double c) {
    float x = a[0] * b, y = a[1] + b;
    double z = c * 2;
    float p = id(x);
    double q = idd(z);
    return x + y + p + (float)(z + q) + id(y);
}

double many(V2D d, double a, double b, double c, double e, double f, double g) {
    double s = 0;
    for (int i = 0; i < 3; i++) {
        V2D t = { d[0] + i, d[1] - i };
        t = (V2D){ idd(t[0]) + a, t[1] + b };
        s += t[0] * c + t[1] * e + idd(f) - g;
    }
    return s;
}

V4F rounds(V4F v, int n) {
    V4F acc = { 0, 0, 0, 0 };
    for (int i = 0; i < n; i++) {
        V4F w = idv(v);
        float k = id((float)i);
        acc = (V4F){ acc[0] + w[0] * k, acc[1] + w[1], acc[2] - w[2], acc[3] + k };
    }
    return acc;
}

int main(void) {
    V4F v = { 1, 2, 3, 4 };
    V2D d = { 0.5, -1.5 };
    printf("scalars %g\n", scalars(v, 3, 0.25));
    printf("many %g\n", many(d, 1, 2, 3, 4, 5, 6));
    V4F r = rounds(v, 6);
    printf("rounds %g %g %g %g\n", r[0], r[1], r[2], r[3]);
    return 0;
}
