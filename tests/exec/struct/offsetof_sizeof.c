#include <stdio.h>
#include <stddef.h>

struct S1 { char a; int b; char c; };
struct S2 { char a; char c; int b; };
struct S3 { double d; char c; };
struct S4 { char c[3]; short s; };
struct S5 { long l; char c; struct S4 s4; };
struct S6 { int a[3]; struct S1 s; double d; };
struct E { int x[0]; };

int main(void) {
    printf("%d %d %d\n", (int)sizeof(struct S1), (int)offsetof(struct S1, b), (int)offsetof(struct S1, c));
    printf("%d %d\n", (int)sizeof(struct S2), (int)offsetof(struct S2, b));
    printf("%d %d\n", (int)sizeof(struct S3), (int)offsetof(struct S3, c));
    printf("%d %d\n", (int)sizeof(struct S4), (int)offsetof(struct S4, s));
    printf("%d %d\n", (int)sizeof(struct S5), (int)offsetof(struct S5, s4));
    printf("%d %d %d\n", (int)sizeof(struct S6), (int)offsetof(struct S6, s.c), (int)offsetof(struct S6, d));
    printf("%d\n", (int)offsetof(struct S6, a[2]));
    printf("%d\n", (int)sizeof(struct E));
    {
        struct S1 arr[5];
        printf("%d %d\n", (int)sizeof arr, (int)sizeof arr[1].b);
    }
    return 0;
}
