// target: x86_64
/* Constraints naming registers: "a" "b" "c" "d" "S" "D", rdx:rax results, cpuid, rdtsc,
   shifts by %cl, rep movsb, clobbered registers (callee-saved rbx among them). */
#include <stdio.h>
#include <string.h>

static void mul64(unsigned long a, unsigned long b, unsigned long *hi, unsigned long *lo) {
    asm("mulq %3" : "=a"(*lo), "=d"(*hi) : "a"(a), "rm"(b) : "cc");
}

static unsigned long shl_cl(unsigned long v, unsigned char n) {
    asm("shlq %%cl, %0" : "+r"(v) : "c"(n));
    return v;
}

static void copy(void *dst, const void *src, unsigned long n) {
    asm volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

static int vendor_printable(void) {
    unsigned a, b, c, d;
    asm volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0), "c"(0));
    char v[13];
    memcpy(v, &b, 4);
    memcpy(v + 4, &d, 4);
    memcpy(v + 8, &c, 4);
    v[12] = 0;
    for (int i = 0; i < 12; i++)
        if (v[i] < 32 || v[i] > 126)
            return 0;
    return a >= 1;
}

static unsigned long long tsc(void) {
    unsigned lo, hi;
    asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((unsigned long long)hi << 32) | lo;
}

/* rbx and r12 are callee-saved: the function must save them itself. */
static long clobbers(long x) {
    asm volatile("movq $-1, %%rbx\n\tmovq $-2, %%r12\n\tmovq $-3, %%rsi" ::: "rbx", "r12", "rsi");
    return x + 1;
}

static long sum_rsi_rdi(long a, long b) {
    long r;
    asm("leaq (%%rsi,%%rdi), %0" : "=r"(r) : "S"(a), "D"(b));
    return r;
}

int main(void) {
    unsigned long hi, lo;
    mul64(0xFFFFFFFFFFFFFFFFul, 0xFFFFFFFFFFFFFFFFul, &hi, &lo);
    printf("mul64 %016lx %016lx\n", hi, lo);
    mul64(0x123456789ul, 0x1000000000ul, &hi, &lo);
    printf("mul64 %016lx %016lx\n", hi, lo);
    printf("shl %lx %lx\n", shl_cl(1, 63), shl_cl(0xff, 12));
    char buf[32];
    copy(buf, "inline asm rep movsb", 21);
    printf("copy %s\n", buf);
    printf("cpuid %d\n", vendor_printable());
    unsigned long long t0 = tsc(), t1 = tsc();
    printf("rdtsc %d\n", t1 >= t0);
    long keep = 5;
    long a = clobbers(keep);
    printf("clobbers %ld %ld\n", keep, a);
    printf("rsi_rdi %ld\n", sum_rsi_rdi(40, 2));
    return 0;
}
