#include <stdio.h>

int main(void) {
    double sum = 0, prod = 1, harm = 0;
    float fsum = 0;
    int i;
    for (i = 1; i <= 100; i++) {
        sum += i * 0.01;
        prod *= 1.01;
        harm += 1.0 / i;
        fsum += 0.1f;
    }
    printf("%.17g\n%.17g\n%.17g\n%.9g\n", sum, prod, harm, fsum);
    {
        double x = 1.0;
        for (i = 0; i < 20; i++)
            x = x - (x * x - 2.0) / (2.0 * x);
        printf("%.17g\n", x);
    }
    {
        double pi = 0;
        int k;
        for (k = 0; k < 1000; k++)
            pi += (k % 2 ? -4.0 : 4.0) / (2 * k + 1);
        printf("%.12f\n", pi);
    }
    return 0;
}
