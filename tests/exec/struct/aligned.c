#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

struct A { char c; int x __attribute__((aligned(16))); };
struct __attribute__((aligned(32))) B { int v; };
struct C { char c; struct B b; };
typedef struct { double d; char c; } D;

static char g_arr[5] __attribute__((aligned(64)));
static int g_int __attribute__((aligned(128))) = 3;

int main(void) {
    char local __attribute__((aligned(32))) = 1;
    int buf[3] __attribute__((aligned(64)));
    printf("%d %d\n", (int)sizeof(struct A), (int)offsetof(struct A, x));
    printf("%d %d\n", (int)sizeof(struct B), (int)_Alignof(struct B));
    printf("%d %d\n", (int)sizeof(struct C), (int)offsetof(struct C, b));
    printf("%d %d\n", (int)sizeof(D), (int)_Alignof(D));
    printf("%d %d %d\n", (int)((uintptr_t)g_arr % 64), (int)((uintptr_t)&g_int % 128), g_int);
    printf("%d %d\n", (int)((uintptr_t)&local % 32), (int)((uintptr_t)buf % 64));
    buf[0] = local;
    printf("%d\n", buf[0]);
    printf("%d %d %d %d\n", (int)_Alignof(char), (int)_Alignof(short), (int)_Alignof(long), (int)_Alignof(long double));
    return 0;
}
