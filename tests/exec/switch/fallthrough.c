#include <stdio.h>

static int acc(int x) {
    int r = 0;
    switch (x) {
    case 1: r += 1;
    case 2: r += 10;
    case 3: r += 100; break;
    case 4: r += 1000;
    case 5:
    case 6: r += 10000;
    }
    return r;
}

int main(void) {
    int i;
    for (i = 0; i <= 7; i++) printf("%d: %d\n", i, acc(i));
    return 0;
}
