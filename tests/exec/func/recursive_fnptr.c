#include <stdio.h>

typedef long (*step_fn)(long, int);
static long down(long acc, int n);
static long up(long acc, int n);
static step_fn table[2] = { down, up };

static long down(long acc, int n) { return n == 0 ? acc : table[n % 2](acc * 2, n - 1); }
static long up(long acc, int n) { return n == 0 ? acc : table[n % 2](acc + 3, n - 1); }

struct state;
typedef struct state (*state_fn)(int);
struct state { state_fn next; int value; };
static struct state s_b(int v);
static struct state s_a(int v) { struct state s = { s_b, v + 1 }; return s; }
static struct state s_b(int v) { struct state s = { s_a, v * 2 }; return s; }

int main(void) {
    struct state s = { s_a, 1 };
    int i;
    printf("%ld\n", down(1, 20));
    for (i = 0; i < 10; i++) s = s.next(s.value);
    printf("%d\n", s.value);
    return 0;
}
