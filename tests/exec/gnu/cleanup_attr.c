#include <stdio.h>
#include <stdlib.h>

static int freed;
static void release(char **p) { if (*p) { freed++; free(*p); } }
static void announce(int *v) { printf("leaving scope with %d\n", *v); }

static int work(int early) {
    char *buf __attribute__((cleanup(release))) = malloc(16);
    int marker __attribute__((cleanup(announce))) = early * 10;
    if (early) return 1;
    marker++;
    return 2;
}

int main(void) {
    printf("%d\n", work(1));
    printf("%d\n", work(0));
    {
        int inner __attribute__((cleanup(announce))) = 99;
        inner++;
    }
    printf("freed %d\n", freed);
    return 0;
}
