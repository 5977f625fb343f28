#include <stdio.h>

static const char *fizz(int i) { return i % 15 == 0 ? "FizzBuzz" : i % 5 == 0 ? "Buzz" : i % 3 == 0 ? "Fizz" : 0; }
static int clamp3(int x) { return x < -1 ? -1 : x > 1 ? 1 : x; }
static double pick(int k, double a, double b) { return k ? (k > 0 ? a : b) : (a + b) / 2; }

int main(void) {
    int i;
    for (i = 1; i <= 15; i++) { const char *s = fizz(i); if (s) printf("%s ", s); else printf("%d ", i); }
    printf("\n%d %d %d %d\n", clamp3(-5), clamp3(0), clamp3(1), clamp3(9));
    printf("%g %g %g\n", pick(1, 2, 4), pick(-1, 2, 4), pick(0, 2, 4));
    {
        int a = 3, b = 5;
        *(a > b ? &a : &b) = 0;
        printf("%d %d\n", a, b);
    }
    return 0;
}
