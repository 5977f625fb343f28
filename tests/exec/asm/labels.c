// target: x86_64
/* Multi-line templates with local numeric labels (1b, 1f), ';' separators, and
   volatile asm inside C loops at every optimisation level. */
#include <stdio.h>

static unsigned popcount_loop(unsigned v) {
    unsigned n;
    asm("xorl %0, %0\n"
        "1:\ttestl %1, %1\n\t"
        "jz 2f\n\t"
        "movl %1, %%ecx; subl $1, %%ecx; andl %%ecx, %1\n\t"
        "incl %0\n\t"
        "jmp 1b\n"
        "2:"
        : "=&r"(n), "+r"(v)
        :
        : "ecx", "cc");
    return n;
}

static long sum_to(long n) {
    long s = 0;
    asm("1: addq %1, %0\n\tdecq %1\n\tjnz 1b" : "+r"(s), "+r"(n));
    return s;
}

int main(void) {
    printf("popcount %u %u %u\n", popcount_loop(0), popcount_loop(0xF0F0u), popcount_loop(~0u));
    printf("sum %ld\n", sum_to(100));
    unsigned total = 0;
    for (unsigned i = 0; i < 64; i++) {
        unsigned v = i;
        asm volatile("bswap %0" : "+r"(v));
        total = total * 31 + v;
        asm volatile("nop");
    }
    printf("bswap loop %08x\n", total);
    return 0;
}
