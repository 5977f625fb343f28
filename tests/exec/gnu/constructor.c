#include <stdio.h>

static int initialized;
static int order[4], n_order;

__attribute__((constructor)) static void setup(void) {
    initialized = 42;
    order[n_order++] = 1;
}

__attribute__((constructor)) static void setup2(void) {
    order[n_order++] = 2;
}

int main(void) {
    printf("%d %d\n", initialized, n_order);
    printf("%d\n", order[0] + order[1]);
    return 0;
}
