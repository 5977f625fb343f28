#include <stdio.h>
#include <stdlib.h>

struct node { int value; struct node *next; };

static struct node *push(struct node *head, int v) {
    struct node *n = malloc(sizeof *n);
    n->value = v;
    n->next = head;
    return n;
}

static struct node *reverse(struct node *head) {
    struct node *prev = NULL;
    while (head) { struct node *next = head->next; head->next = prev; prev = head; head = next; }
    return prev;
}

static struct node *remove_if_even(struct node *head) {
    struct node **pp = &head;
    while (*pp) {
        if ((*pp)->value % 2 == 0) { struct node *dead = *pp; *pp = dead->next; free(dead); }
        else pp = &(*pp)->next;
    }
    return head;
}

static void print(const struct node *n) { for (; n; n = n->next) printf("%d ", n->value); printf("\n"); }

int main(void) {
    struct node *list = NULL;
    int i;
    for (i = 1; i <= 10; i++) list = push(list, i * i);
    print(list);
    list = reverse(list);
    print(list);
    list = remove_if_even(list);
    print(list);
    while (list) { struct node *n = list->next; free(list); list = n; }
    return 0;
}
