#include <stdio.h>

struct ci { char c; int i; };
struct sd { short s; double d; };
struct fc { float f; char c; };
struct cc3 { char a, b, c; };
struct lf { long l; float f; };

static struct ci mk_ci(int k) { struct ci r = { (char)('a' + k), k * 1000 }; return r; }
static struct sd mk_sd(int k) { struct sd r = { (short)-k, k / 4.0 }; return r; }
static struct fc mk_fc(int k) { struct fc r = { k * 0.5f, (char)('A' + k) }; return r; }
static struct cc3 mk_cc3(int k) { struct cc3 r = { (char)k, (char)(k + 1), (char)(k + 2) }; return r; }
static struct lf mk_lf(int k) { struct lf r = { -k * 100000000000L, k * 0.25f }; return r; }

int main(void) {
    int k;
    for (k = 1; k <= 3; k++) {
        struct ci a = mk_ci(k);
        struct sd b = mk_sd(k);
        struct fc c = mk_fc(k);
        struct cc3 d = mk_cc3(k);
        struct lf e = mk_lf(k);
        printf("%c %d | %d %g | %g %c | %d %d %d | %ld %g\n", a.c, a.i, b.s, b.d, c.f, c.c, d.a, d.b, d.c, e.l, e.f);
    }
    return 0;
}
