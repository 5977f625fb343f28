#include <stdio.h>
#include <string.h>

struct big { long a[12]; char tag[5]; };
struct small { char c; short s; };

static struct big g1, g2;

int main(void) {
    struct big b1, b2;
    struct small s1 = { 'x', 300 }, s2;
    struct small arr[4];
    int i;
    for (i = 0; i < 12; i++) b1.a[i] = i * 1000003L;
    strcpy(b1.tag, "tag");
    b2 = b1;
    g1 = b2;
    g2 = g1;
    b1.a[5] = -1;
    printf("%ld %ld %s\n", b2.a[5], g2.a[11], g2.tag);
    s2 = s1;
    for (i = 0; i < 4; i++) { arr[i] = s2; arr[i].s += i; }
    for (i = 0; i < 4; i++) printf("%c%d ", arr[i].c, arr[i].s);
    printf("\n");
    {
        struct big *p = &b2, *q = &b1;
        *q = *p;
        printf("%ld\n", b1.a[5]);
    }
    /* chained assignment */
    {
        struct small x, y, z;
        x = y = z = s1;
        printf("%c %d\n", x.c, y.s + z.s);
    }
    return 0;
}
