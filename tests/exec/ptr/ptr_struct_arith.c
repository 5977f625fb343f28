#include <stdio.h>

struct rec { int id; char pad[13]; double v; };

int main(void) {
    struct rec recs[5];
    struct rec *p, *end = recs + 5;
    int i;
    for (i = 0; i < 5; i++) { recs[i].id = i; recs[i].v = i * 1.5; }
    for (p = recs; p < end; p += 2) printf("%d %g\n", p->id, p->v);
    printf("%d\n", (int)sizeof(struct rec));
    printf("%ld %ld\n", (long)(end - recs), (long)((char *)end - (char *)recs));
    p = &recs[4];
    printf("%d\n", (p - 3)->id);
    {
        double *dp = &recs[2].v;
        struct rec *back = (struct rec *)((char *)dp - __builtin_offsetof(struct rec, v));
        printf("%d\n", back->id);
    }
    return 0;
}
