// target: aarch64
/* _Float16 conversions as AArch64 compiles them (x86-64 refuses them so far): to and from
   float, double and long double (binary128, through libgcc), and every integer type,
   rounding to nearest with ties to even, overflow to infinity, truncation toward zero.
   Values are printed as bits or as the wider type's exact value. */
#include <stdio.h>
#include <string.h>

static unsigned bits(_Float16 h) {
  unsigned short u;
  memcpy(&u, &h, 2);
  return u;
}

static _Float16 half(unsigned u) {
  unsigned short s = (unsigned short)u;
  _Float16 h;
  memcpy(&h, &s, 2);
  return h;
}

static volatile double dsrc[] = { 1.0, 65504.0, 65519.99, 65520.0, 1e-7, 5.960464477539063e-8,
                                  2.98023223876953125e-8, 0.1, -2.5, 1.00048828125,
                                  1.00146484375, -1e300, 3.0517578125e-05 };
static volatile float fsrc[] = { 1.0f, 0.1f, -65504.0f, 65520.0f, 6.1e-5f, 1.000488281f, 2049.0f };
static volatile long double ldsrc[] = { 1.0L, 0.1L, 65519.0L, 1e-6L, -7.25L };
static volatile unsigned hsrc[] = { 0x3c00, 0x3555, 0x7bff, 0xfbff, 0x0001, 0x8001, 0x7c00,
                                    0x3e00, 0xc500, 0x6400, 0x0400 };
static volatile long long isrc[] = { 0, 1, -1, 2049, 2051, 4097, -65504, 65519, 65520,
                                     100000, -100000, 0x7fffffffffffffffLL };
static volatile unsigned long long usrc[] = { 3, 2049, 65535, 0xffffffffULL, 0xffffffffffffffffULL };

int main(void) {
  for (unsigned i = 0; i < sizeof dsrc / sizeof dsrc[0]; i++)
    printf("d->h %04x\n", bits((_Float16)dsrc[i]));
  for (unsigned i = 0; i < sizeof fsrc / sizeof fsrc[0]; i++)
    printf("f->h %04x\n", bits((_Float16)fsrc[i]));
  for (unsigned i = 0; i < sizeof ldsrc / sizeof ldsrc[0]; i++)
    printf("ld->h %04x\n", bits((_Float16)ldsrc[i]));
  for (unsigned i = 0; i < sizeof hsrc / sizeof hsrc[0]; i++) {
    _Float16 h = half(hsrc[i]);
    float f = h;
    double d = h;
    long double ld = h;
    printf("h %04x: %a %a %La\n", hsrc[i], f, d, ld);
  }
  for (unsigned i = 0; i < 10; i++) {
    _Float16 h = half(hsrc[i]);
    if (hsrc[i] == 0x7c00)
      continue;
    int si = h;
    long long sl = h;
    printf("h %04x -> int %d long long %lld\n", hsrc[i], si, sl);
  }
  for (unsigned i = 0; i < 2; i++) {
    _Float16 h = half(hsrc[i] + 0x0800);
    unsigned u = h;
    unsigned long long ul = h;
    unsigned short us = h;
    printf("h %04x -> unsigned %u %llu %u\n", hsrc[i] + 0x0800, u, ul, us);
  }
  for (unsigned i = 0; i < sizeof isrc / sizeof isrc[0]; i++) {
    int w = (int)isrc[i];
    short s = (short)isrc[i];
    printf("ll->h %04x int->h %04x short->h %04x\n", bits((_Float16)isrc[i]), bits((_Float16)w),
           bits((_Float16)s));
  }
  for (unsigned i = 0; i < sizeof usrc / sizeof usrc[0]; i++) {
    unsigned u = (unsigned)usrc[i];
    unsigned char c = (unsigned char)usrc[i];
    printf("ull->h %04x unsigned->h %04x uchar->h %04x\n", bits((_Float16)usrc[i]),
           bits((_Float16)u), bits((_Float16)c));
  }
  return 0;
}
