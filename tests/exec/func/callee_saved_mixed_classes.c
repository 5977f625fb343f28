/* A function that keeps one integer and one floating-point value across calls uses one
   callee-saved register of each class; their save slots must lie inside its own frame,
   or the callees' frames overwrite them and the caller's registers come back changed. */
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static void scribble(void) {
    volatile char buf[512];
    memset((char *)buf, 0x55, sizeof buf);
    buf[0] = buf[511];
}

__attribute__((noinline)) static double keep(long x, float f) {
    scribble();
    printf("x=%ld\n", x);
    scribble();
    return f + (double)x;
}

int main(int argc, char **argv) {
    (void)argv;
    double scale = 0.75 * argc;
    long base = 40 + argc;
    double r = keep(base, 1.5f);
    printf("r=%.3f scale=%.3f base=%ld\n", r, scale, base);
    r = keep(base + 1, 2.5f) * scale;
    printf("r=%.3f scale=%.3f base=%ld\n", r, scale, base);
    return 0;
}
