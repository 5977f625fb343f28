#include <stdio.h>
#include <stdlib.h>

static void first(void) { printf("atexit first registered (runs last)\n"); }
static void second(void) { printf("atexit second registered (runs first)\n"); }

static void finish(int depth) {
    if (depth == 3) {
        printf("exiting from depth %d\n", depth);
        exit(0);
    }
    finish(depth + 1);
    printf("not reached\n");
}

int main(void) {
    atexit(first);
    atexit(second);
    printf("main\n");
    finish(0);
    return 1;
}
