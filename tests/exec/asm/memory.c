// target: x86_64
/* Memory operands ("m", "=m", "+m"), the "memory" clobber, lock-prefixed atomics
   (cmpxchg, xadd, add), xchg with memory, and volatile asm in loops. */
#include <stdio.h>

static int counter;
static long table[4] = {10, 20, 30, 40};

static int cas(int *p, int old, int new) {
    unsigned char ok;
    asm volatile("lock; cmpxchgl %3, %1\n\tsete %2"
                 : "+a"(old), "+m"(*p), "=q"(ok)
                 : "r"(new)
                 : "memory", "cc");
    return ok;
}

static long fetch_add(long *p, long v) {
    asm volatile("lock; xaddq %0, %1" : "+r"(v), "+m"(*p) : : "memory");
    return v;
}

static void atomic_inc(int *p) {
    asm volatile("lock; incl %0" : "+m"(*p));
}

static int exchange(int *p, int v) {
    asm volatile("xchgl %0, %1" : "+r"(v), "+m"(*p) : : "memory");
    return v;
}

static long load_m(const long *p) {
    long v;
    asm("movq %1, %0" : "=r"(v) : "m"(*p));
    return v;
}

static void store_m(long *p, long v) {
    asm("movq %1, %0" : "=m"(*p) : "r"(v));
}

int main(void) {
    int x = 5;
    int ok1 = cas(&x, 5, 9);
    int ok2 = cas(&x, 5, 11);
    printf("cas %d %d %d\n", ok1, ok2, x);
    long acc = 100;
    long old = fetch_add(&acc, 23);
    printf("xadd %ld %ld\n", old, acc);
    for (int i = 0; i < 1000; i++)
        atomic_inc(&counter);
    printf("inc %d\n", counter);
    int y = 1;
    int prev = exchange(&y, 2);
    printf("xchg %d %d\n", prev, y);
    long sum = 0;
    for (int i = 0; i < 4; i++)
        sum += load_m(&table[i]);
    store_m(&table[2], -30);
    printf("m %ld %ld\n", sum, table[2]);
    /* A compiler barrier: the loop's stores and loads stay in order around it. */
    int flag = 0;
    for (int i = 0; i < 10; i++) {
        flag += i;
        asm volatile("" ::: "memory");
    }
    printf("barrier %d\n", flag);
    int local = 7;
    asm volatile("addl $35, %0" : "+m"(local));
    printf("local %d\n", local);
    return 0;
}
