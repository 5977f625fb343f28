#include <stdio.h>
#include <stdint.h>

typedef int32_t fx; /* 16.16 */
#define FX(x) ((fx)((x) * 65536.0))
static fx fmul(fx a, fx b) { return (fx)(((int64_t)a * b) >> 16); }
static fx fdiv(fx a, fx b) { return (fx)(((int64_t)a * 65536) / b); }
static double tod(fx a) { return a / 65536.0; }

int main(void) {
    fx a = FX(3.25), b = FX(-1.5), c;
    int i;
    printf("%.5f %.5f %.5f %.5f\n", tod(a + b), tod(a - b), tod(fmul(a, b)), tod(fdiv(a, b)));
    c = FX(1);
    for (i = 0; i < 10; i++) c = fmul(c, FX(1.1));
    printf("%.5f\n", tod(c));
    {
        /* sqrt by Newton in fixed point */
        fx x = FX(2), g = FX(1);
        for (i = 0; i < 20; i++) g = (g + fdiv(x, g)) / 2;
        printf("%.5f\n", tod(g));
    }
    return 0;
}
