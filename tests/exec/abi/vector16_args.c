/* 16-byte GNU vectors and records holding one, passed and returned by value in
   single xmm registers, mixed with scalar float and integer arguments; the ninth
   vector argument goes on the stack. */
#include <stdio.h>

typedef float V4F __attribute__((vector_size(16)));
typedef int V4I __attribute__((vector_size(16)));
typedef double V2D __attribute__((vector_size(16)));
typedef long long V2L __attribute__((vector_size(16)));
typedef unsigned char V16C __attribute__((vector_size(16)));

struct SV { V4F v; };
struct SD { V2D d; };

static void pf(const char *tag, V4F v) {
    printf("%s %g %g %g %g\n", tag, v[0], v[1], v[2], v[3]);
}

float first_plus_last(V4F a) { return a[0] + a[3]; }

V4F mix(float x, V4F a, double y, V2D d) {
    V4F r = { a[0] + x, a[1], (float)(a[2] + y), (float)d[1] };
    return r;
}

V4I add_i(V4I a, int k, V4I b) {
    V4I r = { a[0] + b[0] + k, a[1] + b[1], a[2] + b[2], a[3] + b[3] - k };
    return r;
}

V2D swap_d(V2D d) {
    V2D r = { d[1], d[0] };
    return r;
}

V2L neg_l(long x, V2L a) {
    V2L r = { -a[0] + x, -a[1] };
    return r;
}

unsigned sum_c(V16C c) {
    unsigned s = 0;
    for (int i = 0; i < 16; i++)
        s += c[i] * (i + 1);
    return s;
}

struct SV rec(struct SV s, V4I i, float f) {
    s.v[1] = (float)i[2] + f;
    return s;
}

struct SD rec_d(double a, struct SD s, double b) {
    struct SD r = { { s.d[0] * a, s.d[1] * b } };
    return r;
}

/* Nine vectors and three doubles: the ninth vector and the doubles that find no
   register go on the stack. */
double nine(V4F a, V4F b, V4F c, V4F d, double x, V4F e, V4F f, V4F g, V4F h,
            double y, V4F i, double z) {
    return a[0] + b[1] + c[2] + d[3] + e[0] + f[1] + g[2] + h[3] + i[0] + x + y * 10 + z * 100;
}

/* Vectors live across calls (spilled: no xmm register survives a call). */
V4F chain(V4F a, V4F b, int n) {
    if (n == 0)
        return a;
    V4F c = chain(b, a, n - 1);
    V4F r = { c[0] + a[1], c[1] + b[0], c[2], c[3] + (float)n };
    return r;
}

static V4F (*volatile fp)(float, V4F, double, V2D) = mix;

int main(void) {
    V4F v = { 1, 2, 3, 4 };
    V2D d = { 5.5, 6.5 };
    V4I i = { 7, 8, 9, 10 };
    V2L l = { 100, -200 };
    V16C c;
    for (int k = 0; k < 16; k++)
        c[k] = (unsigned char)(k * 17 + 3);

    printf("first_plus_last %g\n", first_plus_last(v));
    pf("mix", mix(0.5f, v, 0.25, d));
    pf("fp", fp(-1.0f, v, 2.0, d));
    V4I ri = add_i(i, 3, i);
    printf("add_i %d %d %d %d\n", ri[0], ri[1], ri[2], ri[3]);
    V2D sd = swap_d(d);
    printf("swap_d %g %g\n", sd[0], sd[1]);
    V2L nl = neg_l(7, l);
    printf("neg_l %lld %lld\n", nl[0], nl[1]);
    printf("sum_c %u\n", sum_c(c));
    struct SV s = { v };
    s = rec(s, i, 0.5f);
    pf("rec", s.v);
    struct SD t = { d };
    t = rec_d(2.0, t, -1.0);
    printf("rec_d %g %g\n", t.d[0], t.d[1]);
    V4F w = { 10, 20, 30, 40 };
    printf("nine %g\n", nine(v, w, v, w, 0.5, v, w, v, w, 1.5, w, 2.5));
    pf("chain", chain(v, w, 5));
    return 0;
}
