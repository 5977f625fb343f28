// link: -fomit-frame-pointer
/* -fomit-frame-pointer: rsp-based frames with spills, callee-saved registers, stack
   arguments, variadic functions and a VLA (which keeps rbp), and .eh_frame good enough
   for glibc's backtrace() (the unwinder) to walk through every frame. */
#include <execinfo.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int depth_seen;

__attribute__((noinline)) int leaf(int x) {
    void *frames[16];
    int n = backtrace(frames, 16);
    depth_seen = n;
    if (getenv("SHOW")) backtrace_symbols_fd(frames, n, 1);
    return x + 1;
}

__attribute__((noinline)) long many(long a, long b, long c, long d, long e, long f, long g,
                                    long h, long i) {
    long t[8];
    for (int k = 0; k < 8; k++) t[k] = a * k + b - c + d * e - f + g * h - i;
    return t[3] + t[7] + leaf((int)a);
}

__attribute__((noinline)) int sum(int n, ...) {
    va_list ap;
    va_start(ap, n);
    int s = 0;
    for (int i = 0; i < n; i++) s += va_arg(ap, int);
    va_end(ap);
    return s;
}

__attribute__((noinline)) int vla(int n) {
    int a[n];
    for (int i = 0; i < n; i++) a[i] = i * i;
    int s = 0;
    for (int i = 0; i < n; i++) s += a[i];
    return s + sum(3, n, n, n);
}

__attribute__((noinline)) int rec(int n) {
    if (n == 0) return (int)many(1, 2, 3, 4, 5, 6, 7, 8, 9);
    int x = n * 3, y = n ^ 5, z = n + 11;
    int r = rec(n - 1);
    return r + x + y + z;
}

int main(void) {
    int r = rec(5);
    printf("rec %d, frames >= 9: %d\n", r, depth_seen >= 9);
    printf("sum %d vla %d\n", sum(4, 1, 2, 3, 4), vla(10));
    char buf[32];
    snprintf(buf, sizeof buf, "%d-%s", 42, "x");
    printf("%s %zu\n", buf, strlen(buf));
    return 0;
}
