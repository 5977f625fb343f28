/* Variadic functions and va_list across the compilers. */
#include <stdarg.h>
#include <stddef.h>
struct small { short s; char c; };
struct fd { float f; double d; };
struct big { long v[4]; };

/* vdef.c: variadic definitions */
long sum_ints(int n, ...);
double sum_doubles(int n, ...);
long double sum_long_doubles(int n, ...);
/* Consumes a va_list started elsewhere: i int, l long, d double, L long double,
   s struct small, f struct fd, b struct big, p char pointer. */
double vsum_mixed(const char *spec, va_list ap);
int format_into(char *buf, size_t n, const char *fmt, ...);

/* vuse.c: the other side */
double sum_mixed(const char *spec, ...);
int vformat_twice(char *buf, size_t n, const char *fmt, va_list ap);
double call_with_many(void);
