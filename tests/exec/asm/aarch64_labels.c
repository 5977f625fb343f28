// target: aarch64
/* AArch64 inline asm templates with local numeric labels (1b, 1f), named labels made
   unique by %=, ';' separators, cbz/cbnz/tbz and b.cond, and volatile asm inside C loops. */
#include <stdio.h>

static unsigned popcount_loop(unsigned long v) {
  unsigned n;
  unsigned long t;
  __asm__("mov %w0, #0\n"
          "1:\tcbz %2, 2f\n\t"
          "sub %1, %2, #1; and %2, %2, %1\n\t"
          "add %w0, %w0, #1\n\t"
          "b 1b\n"
          "2:"
          : "=&r"(n), "=&r"(t), "+r"(v));
  return n;
}

static int count_down(int n) {
  int c = 0;
  __asm__("cbz %w1, .Lend%=\n"
          ".Lloop%=:\n\t"
          "add %w0, %w0, #1\n\t"
          "subs %w1, %w1, #1\n\t"
          "b.ne .Lloop%=\n"
          ".Lend%=:"
          : "+r"(c), "+r"(n)
          :
          : "cc");
  return c;
}

static int bit_set(unsigned long v, int dflt) {
  int r = dflt;
  __asm__("tbz %1, #40, 1f\n\tmov %w0, #1\n1:" : "+r"(r) : "r"(v));
  return r;
}

static long clamp(long v, long lo, long hi) {
  __asm__("cmp %0, %1\n\tbge 1f\n\tmov %0, %1\n"
          "1:\tcmp %0, %2\n\tble 2f\n\tmov %0, %2\n"
          "2:"
          : "+r"(v)
          : "r"(lo), "r"(hi)
          : "cc");
  return v;
}

int main(void) {
  printf("popcount %u %u %u\n", popcount_loop(0), popcount_loop(0xff00ff), popcount_loop(~0UL));
  printf("count %d %d\n", count_down(0), count_down(17));
  printf("bit %d %d\n", bit_set(1UL << 40, 0), bit_set(1UL << 41, 0));
  printf("clamp %ld %ld %ld\n", clamp(-5, 0, 10), clamp(5, 0, 10), clamp(50, 0, 10));
  long total = 0;
  for (int i = 0; i < 200; i++) {
    int x = i;
    __asm__ volatile("add %w0, %w0, #3" : "+r"(x));
    total += x;
  }
  printf("loop %ld\n", total);
  return 0;
}
