#include <stdio.h>
#include <stdalign.h>
#include <stdnoreturn.h>
#include <stdlib.h>

_Static_assert(sizeof(int) == 4, "int is 32 bits");

#define TYPE_NAME(x) _Generic((x), int: "int", long: "long", double: "double", float: "float", \
                              char *: "char*", const char *: "const char*", default: "other")
#define ABS(x) _Generic((x), int: abs, long: labs, default: abs)(x)

struct aligned_s { char c; _Alignas(16) int x; };
static _Alignas(32) char buf[10];

static noreturn void die(void) { exit(0); }

int main(void) {
    alignas(8) short s = 3;
    char *cp = 0;
    _Static_assert(_Alignof(struct aligned_s) == 16, "struct alignment");
    printf("%s %s %s %s %s %s\n", TYPE_NAME(1), TYPE_NAME(1L), TYPE_NAME(1.0), TYPE_NAME(1.0f), TYPE_NAME(cp), TYPE_NAME('c'));
    printf("%s\n", TYPE_NAME((short)1));
    printf("%d %ld\n", ABS(-5), ABS(-7L));
    printf("%d %d\n", (int)sizeof(struct aligned_s), (int)alignof(struct aligned_s));
    printf("%d %d\n", (int)((unsigned long)buf % 32), (int)((unsigned long)&s % 8));
    printf("%d\n", s);
    fflush(stdout);
    die();
}
