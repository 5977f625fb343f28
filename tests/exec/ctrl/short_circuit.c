#include <stdio.h>

static int calls;
static int t(int v) { calls = calls * 10 + v; return v; }

int main(void) {
    int r;
    calls = 0; r = t(0) && t(1); printf("%d %d\n", r, calls);
    calls = 0; r = t(1) && t(2); printf("%d %d\n", r, calls);
    calls = 0; r = t(1) || t(2); printf("%d %d\n", r, calls);
    calls = 0; r = t(0) || t(2); printf("%d %d\n", r, calls);
    calls = 0; r = (t(1) && t(0)) || (t(3) && t(4)); printf("%d %d\n", r, calls);
    calls = 0; r = t(0) && t(1) || t(2); printf("%d %d\n", r, calls);
    calls = 0; r = !t(0) && !(t(5) || t(6)); printf("%d %d\n", r, calls);
    {
        int *p = 0;
        int val = (p != 0 && *p > 0);
        printf("%d\n", val);
    }
    {
        double d = 0.0;
        printf("%d %d\n", d && 1, d || 0.5);
    }
    return 0;
}
