#include <stdio.h>

static _Complex double cmul(_Complex double a, _Complex double b) { return a * b; }
static _Complex float fadd(_Complex float a, _Complex float b) { return a + b; }

int main(void) {
    _Complex double a = 1.0 + 2.0i, b = 3.0 - 1.0i;
    _Complex double c = cmul(a, b);
    _Complex float f = fadd(1.5f + 0.5if, -0.5f + 2.0if);
    _Complex double d = a / b;
    printf("%g %g\n", __real__ c, __imag__ c);
    printf("%g %g\n", (double)__real__ f, (double)__imag__ f);
    printf("%.6f %.6f\n", __real__ d, __imag__ d);
    printf("%d %d\n", a == a, a != b);
    printf("%d %d\n", (int)sizeof(_Complex double), (int)sizeof(_Complex float));
    return 0;
}
