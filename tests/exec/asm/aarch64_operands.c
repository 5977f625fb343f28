// target: aarch64
/* AArch64 inline asm operands: "=r" and "+r", "=r" with a matching "0" input, "=&r"
   early clobber, "i" and "n" immediates (gcc substitutes them bare), "I" an add
   immediate, "rZ" zero as xzr, named operands, several outputs, and an asm in a function
   called often. */
#include <stdio.h>

static long add3(long a, long b, long c) {
  __asm__("add %0, %0, %1\n\tadd %0, %0, %2" : "+r"(a) : "r"(b), "r"(c));
  return a;
}

static long mul_matching(long x, long y) {
  long r;
  __asm__("mul %0, %0, %2" : "=r"(r) : "0"(x), "r"(y));
  return r;
}

/* Without '&' the output may share a register with an input; with it, it may not. */
static long early(long a, long b) {
  long t;
  __asm__("lsl %0, %1, #4\n\tadd %0, %0, %2" : "=&r"(t) : "r"(a), "r"(b));
  return t;
}

static long plus_imm(long a) {
  long r;
  __asm__("add %0, %1, %2" : "=r"(r) : "r"(a), "i"(1000));
  return r;
}

static long minus_n(long a) {
  long r;
  __asm__("sub %0, %1, #%2" : "=r"(r) : "r"(a), "n"(24));
  return r;
}

static long add_I(long a) {
  long r;
  __asm__("add %0, %1, %2" : "=r"(r) : "r"(a), "I"(4095));
  return r;
}

static long or_zero(long a, long z) {
  long r;
  __asm__("orr %0, %1, %x2" : "=r"(r) : "r"(a), "rZ"(z));
  return r;
}

static void divmod(unsigned long n, unsigned long d, unsigned long *q, unsigned long *rem) {
  unsigned long qq, rr;
  __asm__("udiv %[q], %[n], %[d]\n\tmsub %[r], %[q], %[d], %[n]"
          : [q] "=&r"(qq), [r] "=r"(rr)
          : [n] "r"(n), [d] "r"(d));
  *q = qq;
  *rem = rr;
}

static unsigned long mulhi(unsigned long a, unsigned long b) {
  unsigned long hi;
  __asm__("umulh %0, %1, %2" : "=r"(hi) : "r"(a), "r"(b));
  return hi;
}

static int select_lt(int a, int b) {
  int r;
  __asm__("cmp %w1, %w2\n\tcsel %w0, %w1, %w2, lt" : "=r"(r) : "r"(a), "r"(b) : "cc");
  return r;
}

static unsigned step(unsigned x) {
  __asm__("add %w0, %w0, %w0, lsl #1\n\tadd %w0, %w0, #1" : "+r"(x));
  return x;
}

int main(void) {
  printf("add3 %ld\n", add3(1, 20, 300));
  printf("mul %ld\n", mul_matching(-7, 6));
  printf("early %ld\n", early(3, 5));
  printf("imm %ld %ld %ld\n", plus_imm(-1), minus_n(100), add_I(1));
  printf("zero %ld %ld\n", or_zero(0x50, 0), or_zero(0x50, 0x0a));
  unsigned long q, r;
  divmod(1000003, 97, &q, &r);
  printf("divmod %lu %lu\n", q, r);
  printf("mulhi %lx\n", mulhi(0xfedcba9876543210UL, 0x123456789abcdef0UL));
  printf("select %d %d\n", select_lt(-4, 3), select_lt(8, -9));
  unsigned long sum = 0;
  for (unsigned i = 0; i < 1000; i++)
    sum += step(i);
  printf("step %lu\n", sum);
  return 0;
}
