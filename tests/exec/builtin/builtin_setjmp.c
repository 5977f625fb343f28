#include <stdio.h>

/* __builtin_setjmp / __builtin_longjmp: a jump back from two calls deep, repeated in a
   loop, with locals of the jumping-to function kept across the jump, and the caller's
   values (which the compiler may keep in callee-saved registers) intact afterwards even
   though the functions in between clobbered those registers and never returned. */

static void *buf[5];
static volatile int sink;

__attribute__((noinline)) static void touch(int r) { sink = r; }

__attribute__((noinline)) static void deep(int n) {
    /* Enough values live across calls to need every callee-saved register. */
    long a = n, b = n * 2, c = n * 3, d = n * 5, e = n * 7, f = n * 11, g = n * 13;
    long h = n * 17, i = n * 19, j = n * 23, k = n * 29, l = n * 31;
    double x = n * 0.5, y = n * 0.25, z = n * 0.125, w = n * 1.5;
    for (int r = 0; r < 3; r++) {
        touch(r);
        sink = (int)(a + b + c + d + e + f + g + h + i + j + k + l + x + y + z + w);
        a += l; b += k; c += j; d += i; e += h; f += g; x += w; y += z;
    }
    if (n >= 0)
        __builtin_longjmp(buf, 1);
    sink = (int)(a + b + c + d + e + f + g + h + i + j + k + l + x + y + z + w);
}

__attribute__((noinline)) static void middle(int n) {
    deep(n);
    puts("not reached");
}

__attribute__((noinline)) static int catcher(int n) {
    int jumped = 0;
    int local = n * 100;
    if (__builtin_setjmp(buf) == 0) {
        local += 1;
        middle(n);
        puts("not reached either");
    } else {
        jumped = 1;
    }
    return jumped * 1000000 + local;
}

int main(void) {
    long p = 3, q = 5, r = 7, s = 11, t = 13, u = 17;
    double v = 2.5, w = 4.75;
    long total = 0;
    for (int n = 0; n < 5; n++) {
        int got = catcher(n);
        printf("catcher(%d) = %d\n", n, got);
        total += got;
        p += q; q += r; r += s; s += t; t += u; u += 1; v *= 1.5; w -= 0.25;
    }
    printf("%ld %ld %ld %ld %ld %ld %ld %g %g\n", total, p, q, r, s, t, u, v, w);
    return 0;
}
