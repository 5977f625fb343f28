/* Complex static initialisers fold in their element type's precision: long double
   parts exactly (x87), double, float and integer parts as before. */
#include <stdio.h>
#include <string.h>
static _Complex long double a = 1.1L + 2.2iL, b = -(3.0L / 7 - 0.1iL) * (2.0L + 1.0iL);
static _Complex double c = 1.1 + 2.2i;
static _Complex float d = 1.1f + 2.2if;
static _Complex int e = 3 + 4i;
static void dump(const void *p, int n) { const unsigned char *b = p; for (int i = n - 1; i >= 0; i--) printf("%02x", b[i]); printf("\n"); }
int main(void) { dump(&a, 10); dump((char *)&a + 16, 10); dump(&b, 10); dump((char *)&b + 16, 10); dump(&c, 16); dump(&d, 8); dump(&e, 8); return 0; }
