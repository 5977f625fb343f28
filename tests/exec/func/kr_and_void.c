#include <stdio.h>

static int old_style(a, b)
    int a;
    long b;
{
    return a + (int)b;
}

static int noargs(void) { return 17; }
static void nothing(void) {}

int main(void) {
    printf("%d\n", old_style(3, 4L));
    nothing();
    printf("%d\n", noargs());
    (void)noargs();
    return 0;
}
