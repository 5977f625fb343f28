#include <stdio.h>

struct node { int v; struct node *next; };
static struct node n3 = { 3, 0 };
static struct node n2 = { 2, &n3 };
static struct node n1 = { 1, &n2 };
static struct node ring[3] = { { 10, &ring[1] }, { 20, &ring[2] }, { 30, &ring[0] } };
static const char *const msgs[] = { "zero", "one" };
static const char *const *pm = &msgs[1];
static int matrix[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };
static int *row1 = matrix[1];
static int *cell = &matrix[1][2];
static char text[] = "abcdef";
static char *tail = &text[4];
static long addr_diff = (long)sizeof(matrix) / sizeof(matrix[0]);

int main(void) {
    struct node *p;
    int i;
    for (p = &n1; p; p = p->next) printf("%d ", p->v);
    printf("\n");
    for (i = 0, p = ring; i < 7; i++, p = p->next) printf("%d ", p->v);
    printf("\n%s %d %d %s %ld\n", *pm, row1[0], *cell, tail, addr_diff);
    return 0;
}
