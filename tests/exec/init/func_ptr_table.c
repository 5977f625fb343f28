#include <stdio.h>

static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }

struct op { const char *name; int (*fn)(int, int); char sym; };

static const struct op ops[] = {
    { "add", add, '+' },
    { "sub", sub, '-' },
    { "mul", mul, '*' },
};
static int (*const fns[])(int, int) = { mul, add };
static const struct op *default_op = &ops[1];

int main(void) {
    int i;
    for (i = 0; i < 3; i++) printf("%s: 7 %c 3 = %d\n", ops[i].name, ops[i].sym, ops[i].fn(7, 3));
    printf("%d %d\n", fns[0](6, 7), fns[1](6, 7));
    printf("%s %d\n", default_op->name, default_op->fn(1, 10));
    return 0;
}
