#include <stdio.h>

enum op { ADD, SUB, MUL, DIV };

static int apply(enum op o, int a, int b) {
    switch (o) {
    case ADD: return a + b;
    case SUB: return a - b;
    case MUL: return a * b;
    case DIV: return b ? a / b : 0;
    }
    return 0;
}

static int sw_char(char c) { switch (c) { case -1: return 1; case 'x': return 2; case 127: return 3; } return 0; }
static int sw_short(short s) { switch (s) { case -32768: return 1; case 32767: return 2; case 0: return 3; } return 0; }
static int sw_ull(unsigned long long u) {
    switch (u) { case 0xffffffffffffffffULL: return 1; case 0x8000000000000000ULL: return 2; case 1: return 3; }
    return 0;
}
static int sw_bool(_Bool b) { switch (b) { case 0: return 10; case 1: return 20; } return 0; }

int main(void) {
    printf("%d %d %d %d\n", apply(ADD, 7, 3), apply(SUB, 7, 3), apply(MUL, 7, 3), apply(DIV, 7, 3));
    printf("%d %d %d %d\n", sw_char(-1), sw_char('x'), sw_char(127), sw_char(5));
    printf("%d %d %d %d\n", sw_short(-32768), sw_short(32767), sw_short(0), sw_short(1));
    printf("%d %d %d %d\n", sw_ull(~0ULL), sw_ull(1ULL << 63), sw_ull(1), sw_ull(2));
    printf("%d %d\n", sw_bool(0), sw_bool(1));
    return 0;
}
