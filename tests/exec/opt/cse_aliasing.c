#include <stdio.h>

/* values that look common but are changed through a pointer in between */
static int __attribute__((noinline)) through(int *a, int *b) {
    int x = *a + 1;
    *b = 100;
    return x + *a;   /* *a must be reloaded if a == b */
}

static long __attribute__((noinline)) mixed_types(long *l, int *i) {
    *l = 1;
    *i = 2;
    return *l;   /* different types: cannot alias under strict aliasing, but here they don't */
}

static int __attribute__((noinline)) char_alias(int *p, char *c) {
    *p = 0x01020304;
    *c = 0x7f;       /* char may alias anything */
    return *p;
}

int main(void) {
    int a = 5, b = 6;
    long l;
    int i;
    int r1 = through(&a, &b);
    int r2 = through(&a, &a);
    printf("%d %d\n", r1, r2);
    printf("%ld\n", mixed_types(&l, &i));
    printf("%x\n", char_alias(&i, (char *)&i));
    return 0;
}
