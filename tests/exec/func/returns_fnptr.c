#include <stdio.h>

static int inc(int x) { return x + 1; }
static int dec(int x) { return x - 1; }
static int (*choose(char c))(int) { return c == '+' ? inc : dec; }
typedef int (*op_t)(int);
static op_t table(int i) { static const op_t t[] = { inc, dec }; return t[i & 1]; }

int main(void) {
    int v = 10, i;
    const char *prog = "++-+++--";
    for (i = 0; prog[i]; i++) v = choose(prog[i])(v);
    printf("%d\n", v);
    for (i = 0; i < 5; i++) v = table(i)(v);
    printf("%d\n", v);
    printf("%d\n", choose('+') == inc);
    return 0;
}
