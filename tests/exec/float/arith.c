#include <stdio.h>

static double dv[] = { 0.0, 1.0, -1.5, 3.25, 1e10, -2.5e-5, 123456.789, 0.1 };
static float fv[] = { 0.0f, 1.0f, -1.5f, 3.25f, 1e10f, -2.5e-5f, 123456.789f, 0.1f };

int main(void) {
    int i, j;
    for (i = 0; i < 8; i++)
        for (j = 0; j < 8; j++) {
            double a = dv[i], b = dv[j];
            float fa = fv[i], fb = fv[j];
            printf("%.17g %.17g %.17g", a + b, a - b, a * b);
            if (b != 0) printf(" %.17g", a / b);
            printf(" | %.9g %.9g %.9g", fa + fb, fa - fb, fa * fb);
            if (fb != 0) printf(" %.9g", fa / fb);
            printf("\n");
        }
    return 0;
}
