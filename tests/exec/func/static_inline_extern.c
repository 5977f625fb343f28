#include <stdio.h>

static inline int sq(int x) { return x * x; }
int cube(int x);
extern int global_counter;
int global_counter = 3;

int cube(int x) { return x * sq(x); }

static int call_many(void) {
    int i, s = 0;
    for (i = 0; i < 10; i++) s += cube(i) - sq(i);
    return s;
}

int main(void) {
    printf("%d %d %d\n", sq(12), cube(-3), call_many());
    global_counter *= cube(2);
    printf("%d\n", global_counter);
    return 0;
}
