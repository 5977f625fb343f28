#include <stdio.h>

int main(void) {
    int arr[4] = { 10, 20, 30, 40 };
    void *p = arr;
    void *q;
    p += sizeof(int) * 2;
    printf("%d\n", *(int *)p);
    q = p + 4;
    printf("%d %ld\n", *(int *)q, (long)(q - (void *)arr));
    printf("%d\n", (int)sizeof(void));
    return 0;
}
