#include <stdio.h>

struct S { char c; long l; };

int main(void) {
    int i = 0;
    int arr[17];
    char *p = 0;
    struct S s;
    printf("%d\n", (int)sizeof i++);
    printf("%d\n", i);
    printf("%d %d %d\n", (int)sizeof arr, (int)sizeof arr[0], (int)sizeof &arr);
    printf("%d %d\n", (int)sizeof *p, (int)sizeof p);
    printf("%d %d\n", (int)sizeof s, (int)sizeof s.l);
    printf("%d %d %d\n", (int)sizeof(1 + 1.0f), (int)sizeof(1 + 1.0), (int)sizeof(char) * 3);
    printf("%d\n", (int)sizeof(int[3][4]));
    printf("%d\n", (int)sizeof(struct S[2]));
    printf("%d\n", (int)sizeof(int (*)(void)));
    printf("%d\n", (int)(sizeof(arr) / sizeof(*arr)));
    printf("%d\n", (int)sizeof "abc");
    printf("%d\n", (int)_Alignof(struct S));
    return 0;
}
