/* Inlining and recursion: self-recursive and mutually recursive functions stay calls
   where they call themselves, small helpers inlined into them still compute right. */
#include <stdio.h>

static int sq(int x) { return x * x; }
static int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
static int is_odd(int n);
static int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }
static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int sum_sq(int n) { return n == 0 ? 0 : sq(n) + sum_sq(n - 1); }
/* A chain of small functions, each calling the next. */
static int add1(int x) { return x + 1; }
static int add2(int x) { return add1(add1(x)); }
static int add4(int x) { return add2(add2(x)); }
static int add8(int x) { return add4(add4(x)); }

int main(void) {
    printf("fact %d %d %d\n", fact(0), fact(5), fact(10));
    printf("even %d %d %d %d\n", is_even(0), is_even(7), is_even(10), is_odd(9));
    printf("fib %ld %ld\n", fib(10), fib(25));
    printf("sum_sq %d\n", sum_sq(30));
    int t = 0;
    for (int i = 0; i < 100; i++)
        t += add8(i);
    printf("add8 %d %d\n", add8(-8), t);
    return 0;
}
