/* The example from the README: preprocessed by neverc today, compiled by it once the
 * back end lands. */
#include <stdio.h>
#include <stdint.h>

#define GREETING(who) "hello, " #who
#define SQUARE(x) ((x) * (x))

int main(void) {
    int32_t n = SQUARE(7);
    printf("%s: %d\n", GREETING(world), (int)n);
    return 0;
}
