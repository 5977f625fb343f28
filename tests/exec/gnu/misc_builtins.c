#include <stdio.h>
#include <stddef.h>

struct S { char c; double d; int arr[3]; };

int main(void) {
    int x = 5;
    printf("%d\n", __builtin_types_compatible_p(int, int));
    printf("%d\n", __builtin_types_compatible_p(int, long));
    printf("%d\n", __builtin_types_compatible_p(typeof(x), int));
    printf("%d\n", __builtin_constant_p(42));
    printf("%d\n", (int)__builtin_offsetof(struct S, arr[1]));
    printf("%d\n", (int)__alignof__(struct S));
    printf("%d\n", __builtin_choose_expr(1, 10, 20.0));
    if (__builtin_expect(x == 5, 1)) printf("likely\n");
    if (__builtin_expect(x != 5, 0)) printf("unlikely\n");
    __extension__ long long ll = 1LL << 40;
    printf("%lld\n", ll);
    return 0;
}
