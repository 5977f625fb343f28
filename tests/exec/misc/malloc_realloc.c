#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vec { int *data; size_t len, cap; };

static void push(struct vec *v, int x) {
    if (v->len == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 1;
        v->data = realloc(v->data, v->cap * sizeof *v->data);
    }
    v->data[v->len++] = x;
}

int main(void) {
    struct vec v = { 0 };
    int *z;
    size_t i;
    long sum = 0;
    for (i = 0; i < 1000; i++) push(&v, (int)(i * 3));
    for (i = 0; i < v.len; i++) sum += v.data[i];
    printf("%lu %lu %ld\n", (unsigned long)v.len, (unsigned long)v.cap, sum);
    free(v.data);
    z = calloc(10, sizeof *z);
    for (i = 0; i < 10; i++) sum += z[i];
    printf("%ld\n", sum);
    free(z);
    {
        char *s = malloc(6);
        memcpy(s, "hello", 6);
        s = realloc(s, 12);
        strcat(s, " world");
        printf("%s\n", s);
        free(s);
    }
    return 0;
}
