#include <stdio.h>

struct flags { unsigned ready : 1, mode : 3, count : 12; int delta : 8; };

static struct flags step(struct flags f) {
    f.count++;
    f.mode = (f.mode + 1) & 7;
    f.delta -= 3;
    f.ready = !f.ready;
    return f;
}

int main(void) {
    struct flags f = { 0, 6, 4094, 5 };
    int i;
    for (i = 0; i < 5; i++) {
        f = step(f);
        printf("%u %u %u %d\n", f.ready, f.mode, f.count, f.delta);
    }
    printf("%d\n", (int)sizeof f);
    return 0;
}
