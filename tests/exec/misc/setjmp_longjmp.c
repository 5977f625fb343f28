#include <stdio.h>
#include <setjmp.h>

static jmp_buf env;
static int depth;

static void dive(int n) {
    depth = n;
    if (n == 5) longjmp(env, n * 10);
    dive(n + 1);
}

static jmp_buf env2;
static int try_divide(int a, int b) {
    if (b == 0) longjmp(env2, 1);
    return a / b;
}

int main(void) {
    volatile int attempts = 0;
    int r = setjmp(env);
    attempts++;
    if (r == 0) {
        dive(0);
        printf("not reached\n");
    } else {
        printf("caught %d at depth %d after %d\n", r, depth, attempts);
    }
    if (setjmp(env2) == 0) {
        printf("%d\n", try_divide(10, 2));
        printf("%d\n", try_divide(1, 0));
    } else {
        printf("division error\n");
    }
    {
        jmp_buf e;
        volatile int count = 0;
        if (setjmp(e) < 3) {
            count++;
            if (count < 3) longjmp(e, count);
        }
        printf("count %d\n", count);
    }
    return 0;
}
