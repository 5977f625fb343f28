#include <stdio.h>
#include <stdlib.h>

struct hdr { int n; int data[0]; };

#define TWICE(body) do { __label__ again; int _k = 0; again: body; if (++_k < 2) goto again; } while (0)

int main(void) {
    struct hdr *h = malloc(sizeof(struct hdr) + 3 * sizeof(int));
    int total = 0;
    h->n = 3;
    h->data[0] = 10; h->data[1] = 20; h->data[2] = 30;
    printf("%d %d\n", (int)sizeof(struct hdr), h->data[0] + h->data[1] + h->data[2]);
    TWICE(total += 1);
    TWICE(total += 100);
    printf("%d\n", total);
    free(h);
    return 0;
}
