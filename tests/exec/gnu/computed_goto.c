#include <stdio.h>

enum { PUSH, ADD, MUL, PRINT, JNZ, DEC, HALT };

static int run(const int *code) {
    static void *labels[] = { &&do_push, &&do_add, &&do_mul, &&do_print, &&do_jnz, &&do_dec, &&do_halt };
    int stack[16], sp = 0, pc = 0, steps = 0;
#define NEXT do { steps++; goto *labels[code[pc++]]; } while (0)
    NEXT;
do_push: stack[sp++] = code[pc++]; NEXT;
do_add: sp--; stack[sp - 1] += stack[sp]; NEXT;
do_mul: sp--; stack[sp - 1] *= stack[sp]; NEXT;
do_print: printf("top %d\n", stack[sp - 1]); NEXT;
do_dec: stack[sp - 1]--; NEXT;
do_jnz: if (stack[sp - 1]) { pc = code[pc]; } else pc++; NEXT;
do_halt:
    return steps;
#undef NEXT
}

int main(void) {
    int prog[] = { PUSH, 2, PUSH, 3, ADD, PUSH, 7, MUL, PRINT, PUSH, 3, PRINT, DEC, JNZ, 11, HALT };
    printf("steps %d\n", run(prog));
    {
        void *target = &&second;
        int n = 0;
        goto *target;
    first:
        n += 1;
        goto out;
    second:
        n += 10;
        target = &&first;
        goto *target;
    out:
        printf("%d\n", n);
    }
    return 0;
}
