#include <stdio.h>

static int early(int x) {
    if (x < 0) return -1;
    while (x > 10) {
        if (x % 7 == 0) return x;
        x--;
    }
    for (;;) {
        if (x == 0) return 100;
        x--;
    }
}

static void noret(int *out, int v) {
    if (v > 5) { *out = 1; return; }
    *out = 2;
}

static double dret(int k) {
    switch (k) {
    case 0: return 0.5;
    case 1: return 1.5;
    default: return -1;
    }
}

int main(void) {
    int o;
    printf("%d %d %d %d\n", early(-5), early(30), early(5), early(13));
    noret(&o, 9); printf("%d\n", o);
    noret(&o, 1); printf("%d\n", o);
    printf("%g %g %g\n", dret(0), dret(1), dret(7));
    return 0;
}
