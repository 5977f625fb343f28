// target: x86_64
/* Inline asm operands: "+r", "=r" with a matching "0" input, "=&r" early clobber, "i" and
   "n" immediates, "g", named operands, several outputs, asm in a function called often. */
#include <stdio.h>

static int add3(int a, int b, int c) {
    asm("addl %1, %0\n\taddl %2, %0" : "+r"(a) : "r"(b), "r"(c));
    return a;
}

static long mul_matching(long x, long y) {
    long r;
    asm("imulq %2, %0" : "=r"(r) : "0"(x), "r"(y));
    return r;
}

/* Without '&' the output may share a register with an input; with it, it may not. */
static int early(int a, int b) {
    int t;
    asm("movl %1, %0\n\tshll $4, %0\n\taddl %2, %0" : "=&r"(t) : "r"(a), "r"(b));
    return t;
}

static unsigned rotl(unsigned v) {
    asm("roll %1, %0" : "+r"(v) : "i"(8));
    return v;
}

static int sub_imm(int v) {
    asm("subl %1, %0" : "+r"(v) : "n"(100));
    return v;
}

static int gen(int v, int w) {
    asm("addl %1, %0" : "+r"(v) : "g"(w));
    asm("addl %1, %0" : "+r"(v) : "g"(1000));
    return v;
}

static void divmod(unsigned a, unsigned b, unsigned *q, unsigned *r) {
    unsigned qq, rr;
    asm("xorl %%edx, %%edx\n\tdivl %[d]" : "=a"(qq), "=&d"(rr) : "a"(a), [d] "r"(b));
    *q = qq;
    *r = rr;
}

static long named(long base, long idx) {
    long out;
    asm("leaq 3(%[b],%[i],8), %[o]" : [o] "=r"(out) : [b] "r"(base), [i] "r"(idx));
    return out;
}

static void swap_sum(int *x, int *y) {
    int a = *x, b = *y;
    asm("xchgl %0, %1\n\taddl %1, %0" : "+r"(a), "+r"(b));
    *x = a;
    *y = b;
}

/* A tied register operand next to a fixed one (regalloc2 must not see a reuse there). */
static long tied_and_fixed(long c, long n) {
    asm("addq %1, %0\n\tdecq %1" : "+r"(c), "+d"(n));
    return c * 1000 + n;
}

int main(void) {
    long sum = 0;
    for (int i = 0; i < 1000; i++)
        sum += add3(i, 2 * i, -3);
    printf("add3 %d %ld\n", add3(1, 2, 3), sum);
    printf("mul %ld %ld\n", mul_matching(123456789L, 1000L), mul_matching(-7, 6));
    printf("early %d %d\n", early(3, 5), early(-1, 16));
    printf("rotl %08x\n", rotl(0x12345678u));
    printf("sub_imm %d\n", sub_imm(42));
    printf("gen %d\n", gen(1, 2));
    unsigned q, r;
    divmod(1000003u, 97u, &q, &r);
    printf("divmod %u %u\n", q, r);
    printf("named %ld\n", named(100, 5));
    int x = 10, y = 20;
    swap_sum(&x, &y);
    printf("swap_sum %d %d\n", x, y);
    printf("tied_fixed %ld\n", tied_and_fixed(5, 7));
    return 0;
}
