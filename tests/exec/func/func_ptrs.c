#include <stdio.h>

typedef int (*binop)(int, int);
typedef double (*unop)(double);

static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static double half(double x) { return x / 2; }
static double negd(double x) { return -x; }

static int fold(const int *a, int n, int init, binop f) { int i; for (i = 0; i < n; i++) init = f(init, a[i]); return init; }
static binop choose(int which) { return which ? sub : add; }
static double apply_twice(unop f, double x) { return f(f(x)); }

int main(void) {
    int arr[] = { 1, 2, 3, 4, 5 };
    binop ops[2] = { add, sub };
    unop u[] = { half, negd, half };
    int (*p)(int, int) = &add;
    double x = 10;
    int i;
    printf("%d %d\n", fold(arr, 5, 0, add), fold(arr, 5, 100, sub));
    printf("%d %d\n", choose(0)(3, 4), choose(1)(3, 4));
    printf("%d %d\n", (*p)(2, 3), (**p)(2, 3));
    printf("%d\n", ops[1](ops[0](1, 2), 10));
    for (i = 0; i < 3; i++) x = u[i](x);
    printf("%g %g\n", x, apply_twice(half, 12));
    printf("%d %d\n", p == add, ops[0] == ops[1]);
    return 0;
}
