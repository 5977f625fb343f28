/* The README's example: neverc compiles and links it (its own back end, then the system
 * cc as linker). */
#include <stdint.h>
#include <stdio.h>

#define GREETING(who) "hello, " #who
#define SQUARE(x) ((x) * (x))

struct point { double x, y; };

static struct point mid(struct point a, struct point b) {
    return (struct point){ (a.x + b.x) / 2, (a.y + b.y) / 2 };
}

int main(void) {
    int32_t n = SQUARE(7);
    struct point m = mid((struct point){ 1, 2 }, (struct point){ 3, 8 });
    printf("%s: %d (INT32_MAX is %ld), midpoint (%g, %g)\n", GREETING(world), (int)n,
           (long)INT32_MAX, m.x, m.y);
    return 0;
}
