#include <stdio.h>
#include <stdint.h>

int main(void) {
    int arr[4] = { 1, 2, 3, 4 };
    uintptr_t u = (uintptr_t)&arr[0];
    intptr_t s = (intptr_t)&arr[3];
    int *back = (int *)(u + 2 * sizeof(int));
    printf("%d\n", *back);
    printf("%ld\n", (long)(s - (intptr_t)u));
    printf("%d\n", (int)(u % sizeof(int)));
    {
        long aligned = ((long)&arr[1] + 15) & ~15L;
        printf("%d\n", (int)(aligned % 16));
    }
    return 0;
}
