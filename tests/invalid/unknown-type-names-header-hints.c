#include <stdio.h>

int f(size_t n);
int g(int8_t x);
int h(bool b);
int m(uint32_t a, ptrdiff_t b, wchar_t c, intptr_t e, time_t t);
