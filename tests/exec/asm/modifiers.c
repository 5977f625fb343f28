// target: x86_64
/* Operand modifiers: %k (32-bit), %q (64-bit), %w (16-bit), %b (low byte), %h (high
   byte), %c (bare constant), %% and %=, and registers sized by the operand's type. */
#include <stdio.h>

static int low32(long v) {
    int r;
    asm("movl %k1, %0" : "=r"(r) : "r"(v));
    return r;
}

static long widen(int v) {
    long r;
    asm("movslq %1, %q0" : "=r"(r) : "r"(v));
    return r;
}

static unsigned char low8(unsigned v) {
    unsigned char r;
    asm("movb %b1, %0" : "=q"(r) : "q"(v));
    return r;
}

static unsigned short low16(unsigned v) {
    unsigned short r;
    asm("movw %w1, %0" : "=r"(r) : "r"(v));
    return r;
}

static long disp(long *p) {
    long v;
    asm("movq %c2(%1), %0" : "=r"(v) : "r"(p), "i"(16) : "memory");
    return v;
}

static int count(int n) {
    int c = 0;
    asm("testl %1, %1\n\tjz .Lend%=\n.Lloop%=:\n\tincl %0\n\tdecl %1\n\tjnz .Lloop%=\n.Lend%=:"
        : "+r"(c), "+r"(n));
    return c;
}

static unsigned char high_byte(unsigned v) {
    unsigned char r;
    asm("movb %h1, %0" : "=Q"(r) : "Q"(v));
    return r;
}

static unsigned swap_bytes16(unsigned v) {
    asm("xchgb %b0, %h0" : "+Q"(v));
    return v;
}

static short add16(short a, short b) {
    asm("addw %1, %0" : "+r"(a) : "r"(b));
    return a;
}

static signed char add8(signed char a, signed char b) {
    asm("addb %1, %0" : "+q"(a) : "q"(b));
    return a;
}

int main(void) {
    printf("k %d %d\n", low32(0x1234567890L), low32(-1L));
    printf("q %ld %ld\n", widen(-5), widen(2147483647));
    printf("b %u %u\n", low8(0x1ff), low8(0x80));
    printf("w %u\n", low16(0xabcdef));
    long arr[4] = {1, 2, 3, 4};
    printf("c %ld\n", disp(arr));
    printf("labels %d %d\n", count(0), count(17));
    printf("add16 %d add8 %d\n", add16(30000, 5000), add8(100, 100));
    printf("h %02x %08x\n", high_byte(0x12345678u), swap_bytes16(0xaabbccddu));
    return 0;
}
