#include <stdio.h>

static int f1(int x) { return x + 1; }
static int f2(int x) { return x * 2; }

typedef int (*fn)(int);

int main(void) {
    void (*generic)(void) = (void (*)(void))f1;
    fn back = (fn)generic;
    fn arr[2] = { f1, f2 };
    fn *pp = arr;
    printf("%d\n", back(41));
    printf("%d %d\n", (*pp[1])(5), pp[0](5));
    printf("%d\n", (*(pp + 1))(pp[0](10)));
    return 0;
}
