/* Functions with static locals, inlined at several call sites, share one object. */
#include <stdio.h>

static int counter(void) { static int n; return ++n; }
static inline int next_id(int base) { static int last = 100; last += base; return last; }
static const char *name(int i) {
    static const char *names[] = {"zero", "one", "two"};
    return names[i % 3];
}

int main(void) {
    int a = counter();
    int b = counter();
    int c = 0;
    for (int i = 0; i < 5; i++)
        c += counter();
    printf("%d %d %d %d\n", a, b, c, counter());
    int x = next_id(1);
    int y = next_id(10);
    printf("%d %d %d\n", x, y, next_id(0));
    for (int i = 0; i < 4; i++)
        printf("%s ", name(i));
    printf("\n");
    return 0;
}
