/* interp: a small stack-machine bytecode interpreter running a loop-heavy program
   (sum of collatz lengths), dispatched through a switch. */
#include <stdio.h>
#include <stdlib.h>

enum op { PUSH, LOAD, STORE, ADD, SUB, MUL, DIVI, MOD, LT, EQ, JZ, JMP, DUP, POP, HALT, INC, AND };

struct insn { int op, arg; };

static long run(const struct insn *code, long *vars) {
    long stack[64];
    int sp = 0, pc = 0;
    for (;;) {
        const struct insn *in = &code[pc++];
        switch (in->op) {
        case PUSH: stack[sp++] = in->arg; break;
        case LOAD: stack[sp++] = vars[in->arg]; break;
        case STORE: vars[in->arg] = stack[--sp]; break;
        case ADD: sp--; stack[sp - 1] += stack[sp]; break;
        case SUB: sp--; stack[sp - 1] -= stack[sp]; break;
        case MUL: sp--; stack[sp - 1] *= stack[sp]; break;
        case DIVI: sp--; stack[sp - 1] /= stack[sp]; break;
        case MOD: sp--; stack[sp - 1] %= stack[sp]; break;
        case AND: sp--; stack[sp - 1] &= stack[sp]; break;
        case LT: sp--; stack[sp - 1] = stack[sp - 1] < stack[sp]; break;
        case EQ: sp--; stack[sp - 1] = stack[sp - 1] == stack[sp]; break;
        case JZ: if (stack[--sp] == 0) pc = in->arg; break;
        case JMP: pc = in->arg; break;
        case DUP: stack[sp] = stack[sp - 1]; sp++; break;
        case POP: sp--; break;
        case INC: vars[in->arg]++; break;
        case HALT: return sp > 0 ? stack[sp - 1] : 0;
        default: return -1;
        }
    }
}

int main(int argc, char **argv) {
    long limit = 150000;
    if (argc > 1) limit = limit * atol(argv[1]) / 100;
    /* vars: 0 = i, 1 = limit, 2 = total, 3 = n, 4 = steps */
    static const struct insn code[] = {
        /* 0 */ {PUSH, 1}, {STORE, 0},
        /* 2 loop_i: */ {LOAD, 0}, {LOAD, 1}, {LT, 0}, {JZ, 37},
        /* 6 */ {LOAD, 0}, {STORE, 3}, {PUSH, 0}, {STORE, 4},
        /* 10 loop_n: */ {LOAD, 3}, {PUSH, 1}, {EQ, 0}, {JZ, 15}, {JMP, 31},
        /* 15 */ {LOAD, 3}, {PUSH, 1}, {AND, 0}, {JZ, 25},
        /* 19 odd */ {LOAD, 3}, {PUSH, 3}, {MUL, 0}, {PUSH, 1}, {ADD, 0}, {JMP, 28},
        /* 25 even */ {LOAD, 3}, {PUSH, 2}, {DIVI, 0},
        /* 28 */ {STORE, 3}, {INC, 4}, {JMP, 10},
        /* 31 done_n */ {LOAD, 2}, {LOAD, 4}, {ADD, 0}, {STORE, 2}, {INC, 0}, {JMP, 2},
        /* 37 end */ {LOAD, 2}, {HALT, 0},
    };
    long vars[8] = {0};
    vars[1] = limit;
    long r = run(code, vars);
    printf("interp %ld %ld\n", r, vars[2]);
    return 0;
}
