#include <stdio.h>

__attribute__((noinline)) static int add(int a, int b) { return a + b; }
__attribute__((always_inline)) static inline int twice(int a) { return a * 2; }
__attribute__((unused)) static int never_called(void) { return 0; }
__attribute__((noreturn)) void fail(void);
static int weak_user(void);
__attribute__((const)) static int sq(int x) { return x * x; }
__attribute__((pure)) static int first(const int *p) { return *p; }
__attribute__((cold)) static void rare(void) { printf("rare\n"); }
struct __attribute__((may_alias)) alias { int v; };

static int weak_user(void) { return 3; }

int main(void) {
    int deprecated_local __attribute__((unused)) = 0;
    int arr[2] = { 9, 8 };
    printf("%d %d %d %d %d\n", add(1, 2), twice(21), sq(7), first(arr), weak_user());
    rare();
    return 0;
}
