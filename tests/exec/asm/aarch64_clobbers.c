// target: aarch64
/* AArch64 inline asm clobbers: caller-saved (x9, v0) and callee-saved (x19-x21, d8)
   registers named in the clobber list keep the compiler's values out of them (and the
   callee-saved ones are saved and restored by the function), "cc" and "memory", values
   live across the asm in registers, and mrs/msr of fpcr. */
#include <stdio.h>

static long __attribute__((noinline)) use_x9(long a) {
  long r;
  __asm__("mov x9, %1\n\tadd x9, x9, x9\n\tmov %0, x9" : "=r"(r) : "r"(a) : "x9");
  return r;
}

static long __attribute__((noinline)) callee_saved(long a, long b) {
  long r;
  long keep = a * 3 + b;
  __asm__("mov x19, %1\n\tmov x20, %2\n\tmov x21, #7\n\tadd %0, x19, x20\n\tadd %0, %0, x21"
          : "=r"(r)
          : "r"(a), "r"(b)
          : "x19", "x20", "x21");
  return r + keep;
}

static double __attribute__((noinline)) fp_clobber(double a, double b) {
  double keep = a - b, r;
  __asm__("fmov d8, #2.0\n\tfmov d0, %d1\n\tfmul %d0, d0, d8" : "=w"(r) : "w"(a) : "d8", "v0");
  return r + keep;
}

static unsigned long fpcr_round_trip(void) {
  unsigned long old, now;
  __asm__ volatile("mrs %0, fpcr" : "=r"(old));
  __asm__ volatile("msr fpcr, %0" : : "r"(old));
  __asm__ volatile("mrs %0, fpcr" : "=r"(now));
  return old ^ now;
}

/* Callee-saved registers of the caller survive: many values live across calls whose
   asm clobbers them. */
int main(void) {
  long v[8];
  for (int i = 0; i < 8; i++)
    v[i] = i * 11;
  long s0 = v[0] + 1, s1 = v[1] + 2, s2 = v[2] + 3, s3 = v[3] + 4;
  long c = callee_saved(v[4], v[5]);
  double f = fp_clobber(1.5, 0.25);
  long x = use_x9(v[7]);
  printf("values %ld %ld %ld %ld\n", s0, s1, s2, s3);
  printf("callee_saved %ld fp %g x9 %ld\n", c, f, x);
  printf("fpcr %lu\n", fpcr_round_trip());
  return 0;
}
