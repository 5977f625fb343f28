#include <stdio.h>

struct msg {
    int type;
    union {
        struct { int x, y; } move;
        struct { char text[12]; } say;
        struct { double amount; unsigned flags : 4; } pay;
    } body;
};

static void handle(const struct msg *m) {
    switch (m->type) {
    case 0: printf("move %d,%d\n", m->body.move.x, m->body.move.y); break;
    case 1: printf("say %s\n", m->body.say.text); break;
    case 2: printf("pay %.2f flags %u\n", m->body.pay.amount, m->body.pay.flags); break;
    }
}

int main(void) {
    struct msg ms[3] = {
        { 0, { .move = { 3, -4 } } },
        { 1, { .say = { "hello" } } },
        { 2, { .pay = { 9.75, 5 } } },
    };
    int i;
    for (i = 0; i < 3; i++) handle(&ms[i]);
    ms[0] = ms[2];
    handle(&ms[0]);
    printf("%d\n", (int)sizeof(struct msg));
    return 0;
}
