#include "globals.h"

int counters[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
struct point origin = { 10, -20, 3.5 };
struct point path[3] = { { 1, 2, 0.5 }, { 3, 4, 1.5 }, { 5, 6, 2.5 } };
__thread int tls_value = 42;
__thread struct point tls_point = { 7, 8, 9.25 };
const char *const color_names[] = { "red", "green", "blue", 0 };
static int twice(int x) { return 2 * x; }
static int square(int x) { return x * x; }
static int negate(int x) { return -x; }
const struct op ops[] = { { "twice", twice }, { "square", square }, { "negate", negate }, { 0, 0 } };
const int *const counter_ptrs[2] = { &counters[0], &counters[7] };
char message[] = "hello from data.c";
long long big = 0x123456789abcdefLL;
long double ld_global = 1.25L;
const struct config config = { "cfg01", 0xa5, -9000000000LL, &ops[1] };
unsigned char bytes[300];
int (*volatile hook)(int) = square;
