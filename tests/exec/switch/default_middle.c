#include <stdio.h>

static int f(int x) {
    int r = 0;
    switch (x) {
    case 1: r = 1; break;
    default: r = 50;
    case 2: r += 2; break;
    case 3: r = 3;
    }
    return r;
}

static int g(unsigned char c) {
    switch (c) {
    default: return -1;
    case 'a': return 1;
    case 255: return 255;
    case 0: return 0;
    }
}

int main(void) {
    int i;
    for (i = 0; i < 5; i++) printf("%d ", f(i));
    printf("\n%d %d %d %d\n", g('a'), g(255), g(0), g('b'));
    return 0;
}
