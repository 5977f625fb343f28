#include <stdio.h>

struct big { long a, b, c, d; };

static struct big make(long x) { struct big r = { x, x * 2, x * 3, x * 4 }; return r; }
static struct big add(struct big p, struct big q) { struct big r = { p.a + q.a, p.b + q.b, p.c + q.c, p.d + q.d }; return r; }
static struct big swap_self(struct big p) { struct big r = { p.d, p.c, p.b, p.a }; return r; }

int main(void) {
    struct big x = make(1);
    /* result aliases an argument: the callee must not clobber its input early */
    x = swap_self(x);
    printf("%ld %ld %ld %ld\n", x.a, x.b, x.c, x.d);
    x = add(x, x);
    printf("%ld %ld %ld %ld\n", x.a, x.b, x.c, x.d);
    x = add(make(10), add(make(100), swap_self(make(1000))));
    printf("%ld %ld %ld %ld\n", x.a, x.b, x.c, x.d);
    printf("%ld\n", add(make(5), make(6)).c);
    {
        struct big arr[3];
        int i;
        for (i = 0; i < 3; i++) arr[i] = make(i + 1);
        arr[0] = add(arr[1], arr[2]);
        printf("%ld %ld\n", arr[0].a, arr[0].d);
    }
    return 0;
}
