/* The README's example. neverc preprocesses it (its own <stdint.h> in front of the C
 * library's); until neverc's back end lands, the system compiler compiles the result.
 * printf is declared by hand so the output needs nothing a GNU C 4.2 compiler lacks
 * (see docs/predefined-macros.md). */
#include <stdint.h>

int printf(const char *format, ...);

#define GREETING(who) "hello, " #who
#define SQUARE(x) ((x) * (x))

int main(void) {
    int32_t n = SQUARE(7);
    printf("%s: %d (INT32_MAX is %ld)\n", GREETING(world), (int)n, (long)INT32_MAX);
    return 0;
}
