#include <stdio.h>

struct item { int id; double price; struct item *next; };

static void reprice(struct item *it, double factor) {
    for (; it; it = it->next) it->price *= factor;
}

int main(void) {
    struct item items[4];
    struct item *p;
    int i;
    for (i = 0; i < 4; i++) {
        items[i].id = 100 + i;
        items[i].price = 1.25 * (i + 1);
        items[i].next = i < 3 ? &items[i + 1] : NULL;
    }
    reprice(&items[1], 2);
    for (p = items; p; p = p->next) printf("%d %.2f\n", p->id, p->price);
    p = &items[2];
    printf("%d %d\n", (p - 1)->id, (p + 1)->id);
    printf("%d\n", (*p).next->id);
    p->next->next = items;
    printf("%d\n", p->next->next->next->next->id);
    return 0;
}
