#include <stdio.h>

static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int ack(int m, int n) {
    if (m == 0) return n + 1;
    if (n == 0) return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}
static unsigned long fact(unsigned n) { return n <= 1 ? 1 : n * fact(n - 1); }
static int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }
static void hanoi(int n, char from, char to, char via, int *moves) {
    if (n == 0) return;
    hanoi(n - 1, from, via, to, moves);
    (*moves)++;
    if (n == 4) printf("move 4 %c->%c\n", from, to);
    hanoi(n - 1, via, to, from, moves);
}
static int is_even(int n);
static int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }
static int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }

int main(void) {
    int moves = 0;
    printf("%ld %ld\n", fib(20), fib(30));
    printf("%d %d %d\n", ack(2, 3), ack(3, 3), ack(3, 5));
    printf("%lu\n", fact(20));
    printf("%d %d\n", gcd(1071, 462), gcd(17, 5));
    hanoi(10, 'A', 'C', 'B', &moves);
    printf("%d\n", moves);
    printf("%d %d\n", is_even(100), is_odd(77));
    return 0;
}
