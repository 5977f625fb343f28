#include <stdio.h>

static int counter(void) { static int n; return ++n; }
static const char *name(int i) { static const char *names[] = { "zero", "one", "two" }; return names[i]; }
static int *cell(void) { static int c = 100; return &c; }
static double running_avg(double x) {
    static double sum;
    static int count;
    sum += x;
    return sum / ++count;
}

int main(void) {
    int i;
    for (i = 0; i < 3; i++) printf("%d ", counter());
    printf("\n%s %s\n", name(2), name(0));
    *cell() += 5;
    printf("%d\n", *cell());
    {
        /* separate statements: the order of evaluation of arguments is unspecified */
        double r1 = running_avg(1);
        double r2 = running_avg(2);
        double r3 = running_avg(6);
        printf("%g %g %g\n", r1, r2, r3);
    }
    {
        static int arr[3] = { 1, 2, 3 };
        arr[1] *= 10;
        printf("%d\n", arr[0] + arr[1] + arr[2]);
    }
    return 0;
}
