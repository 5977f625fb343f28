// link: -lm
#include <stdio.h>
#include <math.h>

int main(void) {
    double xs[] = { 0.0, 0.5, 1.0, 2.0, 10.0, 0.25 };
    int i;
    for (i = 0; i < 6; i++) {
        double x = xs[i];
        printf("%.10f %.10f %.10f %.10f %.10f\n", sqrt(x), sin(x), cos(x), exp(x), atan(x));
    }
    printf("%.10f\n", pow(2.0, 0.5));
    printf("%.10f\n", log(10.0));
    printf("%g %g %g %g\n", floor(-2.5), ceil(-2.5), trunc(-2.5), round(-2.5));
    printf("%g %g\n", fabs(-3.0), fmod(10.5, 3.0));
    printf("%.6f\n", hypot(3.0, 4.0));
    printf("%.6f\n", sqrtf(2.0f));
    printf("%.6f\n", atan2(1.0, -1.0));
    return 0;
}
