/* A small function whose address is taken: inlined at its direct calls, and its body
   still exists for the calls through the pointer, which compare equal. */
#include <stdio.h>

static int twice(int x) { return 2 * x; }
static int thrice(int x) { return 3 * x; }
static int (*const table[])(int) = {twice, thrice};

static int apply(int (*f)(int), int x) { return f(x); }

int main(void) {
    int (*p)(int) = twice;
    printf("%d %d\n", twice(21), p(5));
    printf("%d %d\n", apply(thrice, 7), table[1](4) + table[0](1));
    printf("%d %d\n", p == twice, table[0] == twice);
    int s = 0;
    for (int i = 0; i < 10; i++)
        s += table[i & 1](i) + twice(i);
    printf("%d\n", s);
    return 0;
}
