// target: x86_64
// link: -lm
/* "x" operands with SSE instructions, and the x87 stack constraints "t" and "u". */
#include <stdio.h>

static double add_sd(double a, double b) {
    asm("addsd %1, %0" : "+x"(a) : "x"(b));
    return a;
}

static double sqrt_sd(double v) {
    double r;
    asm("sqrtsd %1, %0" : "=x"(r) : "x"(v));
    return r;
}

static float mul_ss(float a, float b) {
    asm("mulss %1, %0" : "+x"(a) : "x"(b));
    return a;
}

static double max_sd(double a, double b) {
    asm("maxsd %1, %0" : "+x"(a) : "xm"(b));
    return a;
}

static long trunc_sd(double v) {
    long r;
    asm("cvttsd2siq %1, %0" : "=r"(r) : "x"(v));
    return r;
}

static long double sqrt_x87(long double v) {
    long double r;
    asm("fsqrt" : "=t"(r) : "0"(v));
    return r;
}

static long double atan2_x87(long double y, long double x) {
    long double r;
    asm("fpatan" : "=t"(r) : "0"(x), "u"(y) : "st(1)");
    return r;
}

static double sqrt_x87_double(double v) {
    double r;
    asm("fsqrt" : "=t"(r) : "0"(v));
    return r;
}

int main(void) {
    printf("add %.3f\n", add_sd(1.25, 2.5));
    printf("sqrt %.6f %.6f\n", sqrt_sd(2.0), sqrt_sd(144.0));
    printf("mul %.3f\n", mul_ss(1.5f, -4.0f));
    printf("max %.1f %.1f\n", max_sd(-3.0, 2.0), max_sd(7.5, 1.0));
    printf("trunc %ld %ld\n", trunc_sd(-7.9), trunc_sd(1e12));
    printf("fsqrt %.10Lf\n", sqrt_x87(2.0L));
    printf("fpatan %.10Lf\n", atan2_x87(1.0L, 1.0L) * 4);
    printf("fsqrt double %.6f\n", sqrt_x87_double(81.0));
    double acc = 0;
    for (int i = 1; i <= 10; i++)
        acc = add_sd(acc, sqrt_sd((double)i * i));
    printf("loop %.1f\n", acc);
    return 0;
}
