#include <stdio.h>
#include <stdlib.h>

struct ring { int buf[8]; int head, count; };
static int ring_push(struct ring *r, int v) { if (r->count == 8) return 0; r->buf[(r->head + r->count++) % 8] = v; return 1; }
static int ring_pop(struct ring *r, int *v) { if (!r->count) return 0; *v = r->buf[r->head]; r->head = (r->head + 1) % 8; r->count--; return 1; }

static int balanced(const char *s) {
    char stack[64];
    int sp = 0;
    for (; *s; s++) {
        if (*s == '(' || *s == '[' || *s == '{') stack[sp++] = *s;
        else if (*s == ')' || *s == ']' || *s == '}') {
            char open = *s == ')' ? '(' : *s == ']' ? '[' : '{';
            if (!sp || stack[--sp] != open) return 0;
        }
    }
    return sp == 0;
}

int main(void) {
    struct ring r = { { 0 }, 0, 0 };
    int i, v, ok = 0;
    for (i = 0; i < 10; i++) ok += ring_push(&r, i * i);
    printf("%d\n", ok);
    for (i = 0; i < 3; i++) { ring_pop(&r, &v); printf("%d ", v); }
    for (i = 0; i < 3; i++) ring_push(&r, 100 + i);
    while (ring_pop(&r, &v)) printf("%d ", v);
    printf("\n%d %d %d %d\n", balanced("{[()()]}"), balanced("([)]"), balanced("(("), balanced(""));
    return 0;
}
