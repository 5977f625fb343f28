#include <stdio.h>

struct M { double m[3][3]; };
struct Str { char s[100]; int len; };

static struct M identity(void) {
    struct M r = { { { 0 } } };
    int i;
    for (i = 0; i < 3; i++) r.m[i][i] = 1;
    return r;
}

static struct M mul(struct M a, struct M b) {
    struct M r;
    int i, j, k;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) {
            r.m[i][j] = 0;
            for (k = 0; k < 3; k++) r.m[i][j] += a.m[i][k] * b.m[k][j];
        }
    return r;
}

static struct Str build(int n) {
    struct Str s;
    int i;
    for (i = 0; i < n; i++) s.s[i] = 'a' + i % 26;
    s.s[n] = 0;
    s.len = n;
    return s;
}

int main(void) {
    struct M a = identity(), b;
    int i, j;
    a.m[0][1] = 2; a.m[2][0] = -1;
    b = mul(a, mul(a, identity()));
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) printf("%g%c", b.m[i][j], j == 2 ? '\n' : ' ');
    printf("%s %d\n", build(30).s, build(5).len);
    /* member of returned struct directly */
    printf("%g\n", mul(a, a).m[0][1]);
    return 0;
}
