// target: aarch64
/* AArch64 inline asm operand modifiers: %w (32-bit view) and %x (64-bit view) of general
   registers, a plain operand as the x register, %s %d %q %b %h of vector registers, %%
   and %=, %c of a constant, and extension of a w input by the asm. */
#include <stdio.h>

static int low32(long v) {
  int r;
  __asm__("mov %w0, %w1" : "=r"(r) : "r"(v));
  return r;
}

static long widen(int v) {
  long r;
  __asm__("sxtw %x0, %w1" : "=r"(r) : "r"(v));
  return r;
}

static unsigned long zext(unsigned v) {
  unsigned long r;
  __asm__("mov %w0, %w1" : "=r"(r) : "r"(v));
  return r;
}

static unsigned char low8(unsigned v) {
  unsigned char r;
  __asm__("uxtb %w0, %w1" : "=r"(r) : "r"(v));
  return r;
}

static long disp(long *p) {
  long v;
  __asm__("ldr %0, [%1, #%c2]" : "=r"(v) : "r"(p), "i"(16) : "memory");
  return v;
}

static int count(int n) {
  int c = 0;
  __asm__("cbz %w1, .Lend%=\n.Lloop%=:\n\tadd %w0, %w0, #1\n\tsub %w1, %w1, #1\n\tcbnz %w1, .Lloop%=\n.Lend%=:"
          : "+r"(c), "+r"(n));
  return c;
}

static float fadd_s(float a, float b) {
  float r;
  __asm__("fadd %s0, %s1, %s2" : "=w"(r) : "w"(a), "w"(b));
  return r;
}

static double fsqrt_d(double a) {
  double r;
  __asm__("fsqrt %d0, %d1" : "=w"(r) : "w"(a));
  return r;
}

static unsigned half_bits(float f) {
  unsigned r;
  float t;
  __asm__("fcvt %h1, %s2\n\tfmov %w0, %s1" : "=r"(r), "=&w"(t) : "w"(f));
  return r & 0xffff;
}

static double copy_q(double d) {
  double r;
  __asm__("mov %0.16b, %1.16b" : "=w"(r) : "w"(d));
  return r;
}

static unsigned long bits_of(double d) {
  unsigned long r;
  __asm__("fmov %x0, %d1" : "=r"(r) : "w"(d));
  return r;
}

static long percent(long a) {
  long r;
  /* %% is a literal '%': here only in a comment after the instruction. */
  __asm__("add %0, %1, #1 // 100%% sure" : "=r"(r) : "r"(a));
  return r;
}

int main(void) {
  printf("low32 %d\n", low32(0x123456789L));
  printf("widen %ld %ld\n", widen(-5), widen(7));
  printf("zext %lx\n", zext(0xfffffff0u));
  printf("low8 %u\n", low8(0x1234));
  long arr[4] = { 10, 20, 30, 40 };
  printf("disp %ld\n", disp(arr));
  printf("count %d %d\n", count(0), count(9));
  printf("fadd %g\n", fadd_s(1.25f, 2.5f));
  printf("fsqrt %g\n", fsqrt_d(2.25));
  printf("half %04x %04x\n", half_bits(1.0f), half_bits(-0.5f));
  printf("copy %g\n", copy_q(-3.75));
  printf("bits %lx\n", bits_of(1.0));
  printf("percent %ld\n", percent(99));
  return 0;
}
