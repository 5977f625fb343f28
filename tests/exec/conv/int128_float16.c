/* __int128 to and from _Float16: libgcc's hf helpers (__floattihf, __floatuntihf,
   __fixhfti, __fixunshfti), rounding to nearest with ties to even, overflow to
   infinity, truncation toward zero. (The binary128 helpers were called once, which
   gave 0 for every value.) Values are printed as bits. */
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

__attribute__((noinline)) static _Float16 from_signed(__int128 x) { return x; }
__attribute__((noinline)) static _Float16 from_unsigned(unsigned __int128 x) { return x; }
__attribute__((noinline)) static __int128 to_signed(_Float16 h) { return h; }
__attribute__((noinline)) static unsigned __int128 to_unsigned(_Float16 h) { return h; }

static volatile long long isrc[] = { 0, 1, -1, 3, 2049, 2051, 4097, -65504, 65519, 65520,
                                     100000, -100000 };
/* 1, 5, -5, 65504, 0.5, 1025, -1.5, 2.5, 0.99951 */
static volatile unsigned hsrc[] = { 0x3c00, 0x4500, 0xc500, 0x7bff, 0x3800, 0x6401, 0xbe00,
                                    0x4100, 0x3bff };

int main(void) {
  for (unsigned i = 0; i < sizeof isrc / sizeof isrc[0]; i++) {
    __int128 x = isrc[i];
    printf("%lld: %04x", (long long)isrc[i], bits(from_signed(x)));
    if (x >= 0)
      printf(" %04x", bits(from_unsigned((unsigned __int128)x)));
    printf("\n");
  }
  unsigned __int128 big = (unsigned __int128)1 << 100;
  printf("2^100: %04x %04x\n", bits(from_unsigned(big)), bits(from_signed(-(__int128)big)));
  for (unsigned i = 0; i < sizeof hsrc / sizeof hsrc[0]; i++) {
    _Float16 h = half(hsrc[i]);
    printf("%04x: %lld", hsrc[i], (long long)to_signed(h));
    if (!(hsrc[i] & 0x8000))
      printf(" %llu", (unsigned long long)to_unsigned(h));
    printf("\n");
  }
  return 0;
}
