// target: aarch64
/* AArch64 inline asm memory operands ("m", "=m", "+m", "Q"), the "memory" clobber,
   load/store pairs through a pointer operand, post-increment addressing, and an
   exclusive load/store loop (an atomic add). */
#include <stdio.h>

static int load(const int *p) {
  int r;
  __asm__("ldr %w0, %1" : "=r"(r) : "m"(*p));
  return r;
}

static void store(long *p, long v) {
  __asm__("str %1, %0" : "=m"(*p) : "r"(v));
}

static void bump(int *p) {
  int t;
  __asm__("ldr %w1, %0\n\tadd %w1, %w1, #5\n\tstr %w1, %0" : "+m"(*p), "=&r"(t));
}

static long sum_pairs(const long *a, int n) {
  long s = 0, x, y;
  const long *p = a;
  for (int i = 0; i < n; i += 2) {
    __asm__("ldp %1, %2, [%3], #16\n\tadd %0, %0, %1\n\tadd %0, %0, %2"
            : "+r"(s), "=&r"(x), "=&r"(y), "+r"(p)
            :
            : "memory");
  }
  return s;
}

static void copy_bytes(unsigned char *d, const unsigned char *s, unsigned long n) {
  unsigned t;
  __asm__ volatile("cbz %2, 2f\n"
                   "1:\tldrb %w3, [%1], #1\n\t"
                   "strb %w3, [%0], #1\n\t"
                   "subs %2, %2, #1\n\t"
                   "b.ne 1b\n"
                   "2:"
                   : "+r"(d), "+r"(s), "+r"(n), "=&r"(t)
                   :
                   : "memory", "cc");
}

static int atomic_add(int *p, int v) {
  int old, tmp, fail;
  __asm__ volatile("1:\tldaxr %w0, %3\n\t"
                   "add %w1, %w0, %w4\n\t"
                   "stlxr %w2, %w1, %3\n\t"
                   "cbnz %w2, 1b"
                   : "=&r"(old), "=&r"(tmp), "=&r"(fail), "+Q"(*p)
                   : "r"(v)
                   : "memory");
  return old;
}

int main(void) {
  int x = 41;
  long l = 0;
  printf("load %d\n", load(&x));
  store(&l, -123456789012L);
  printf("store %ld\n", l);
  bump(&x);
  printf("bump %d\n", x);
  long a[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
  printf("pairs %ld\n", sum_pairs(a, 8));
  unsigned char src[13] = "hello, world", dst[13] = { 0 };
  copy_bytes(dst, src, sizeof src);
  copy_bytes(dst, src, 0);
  printf("copy %s\n", (char *)dst);
  int c = 100;
  int o1 = atomic_add(&c, 7);
  int o2 = atomic_add(&c, -20);
  printf("atomic %d %d %d\n", o1, o2, c);
  return 0;
}
