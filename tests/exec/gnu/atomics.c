#include <stdio.h>

static int counter;
static long lcount = 100;

int main(void) {
    int old, expected = 5, ok;
    old = __sync_fetch_and_add(&counter, 5);
    printf("%d %d\n", old, counter);
    printf("%d\n", __sync_add_and_fetch(&counter, 10));
    printf("%d\n", __sync_val_compare_and_swap(&counter, 15, 1));
    printf("%d\n", counter);
    printf("%d\n", __sync_bool_compare_and_swap(&counter, 99, 2));
    old = __atomic_fetch_sub(&lcount, 30, __ATOMIC_SEQ_CST);
    printf("%d %ld\n", old, __atomic_load_n(&lcount, __ATOMIC_ACQUIRE));
    __atomic_store_n(&counter, 5, __ATOMIC_RELEASE);
    ok = __atomic_compare_exchange_n(&counter, &expected, 50, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    printf("%d %d\n", ok, counter);
    old = __atomic_exchange_n(&counter, 7, __ATOMIC_SEQ_CST);
    printf("%d %d\n", old, counter);
    printf("%d\n", __sync_fetch_and_or(&counter, 8));
    printf("%d\n", __atomic_and_fetch(&counter, 12, __ATOMIC_RELAXED));
    __sync_synchronize();
    return 0;
}
