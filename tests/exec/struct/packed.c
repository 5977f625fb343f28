#include <stdio.h>
#include <stddef.h>
#include <string.h>

struct __attribute__((packed)) P { char c; int i; short s; double d; };
struct N { char c; int i; short s; double d; };
#pragma pack(push, 2)
struct Q { char c; int i; char d; };
#pragma pack(pop)

int main(void) {
    struct P p;
    struct P arr[3];
    int i;
    printf("%d %d %d\n", (int)sizeof(struct P), (int)sizeof(struct N), (int)sizeof(struct Q));
    printf("%d %d %d\n", (int)offsetof(struct P, i), (int)offsetof(struct P, s), (int)offsetof(struct P, d));
    printf("%d %d\n", (int)offsetof(struct Q, i), (int)offsetof(struct Q, d));
    p.c = 'z'; p.i = 0x12345678; p.s = -2; p.d = 6.5;
    printf("%c %x %d %g\n", p.c, p.i, p.s, p.d);
    for (i = 0; i < 3; i++) { arr[i] = p; arr[i].i += i; arr[i].d *= i; }
    for (i = 0; i < 3; i++) printf("%x %g ", arr[i].i, arr[i].d);
    printf("\n");
    {
        unsigned char raw[sizeof(struct P)];
        memcpy(raw, &p, sizeof p);
        for (i = 0; i < (int)sizeof raw; i++) printf("%02x", raw[i]);
        printf("\n");
    }
    return 0;
}
