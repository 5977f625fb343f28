#include <stdio.h>
#include <stddef.h>

struct node { int v; struct node *next; };

static int length(const struct node *n) { int c = 0; for (; n; n = n->next) c++; return c; }

int main(void) {
    struct node c = { 3, NULL }, b = { 2, &c }, a = { 1, &b };
    int *p = NULL;
    printf("%d\n", length(&a));
    printf("%d %d\n", p == 0, !p);
    printf("%d\n", a.next->next->v);
    printf("%d\n", a.next->next->next == NULL);
    p = &a.v;
    printf("%d\n", p ? *p : -1);
    printf("%d\n", (int)((char *)&a.next - (char *)&a));
    printf("%d\n", &b < &b + 1);
    return 0;
}
