#include <stdio.h>

static const signed char deltas[] = { -128, -1, 0, 1, 127 };
static const short shorts[] = { -32768, -300, 300, 32767 };
static const unsigned long long masks[] = { 0, 1, 0xffffffffffffffffULL, 1ULL << 63 };
static const double weights[] = { -0.0, 0.1, -1e-300, 1e300, 3.0 / 7 };
static const float fw[] = { 1.0f / 3, -2.5f, 1e-40f };
static const long double lds[] = { 1.0L / 3, -2.0L };

int main(void) {
    int i;
    for (i = 0; i < 5; i++) printf("%d ", deltas[i]);
    printf("\n");
    for (i = 0; i < 4; i++) printf("%d ", shorts[i]);
    printf("\n");
    for (i = 0; i < 4; i++) printf("%llx ", masks[i]);
    printf("\n");
    for (i = 0; i < 5; i++) printf("%.17g ", weights[i]);
    printf("\n");
    for (i = 0; i < 3; i++) printf("%.9g ", fw[i]);
    printf("\n%.18Lg %.18Lg\n", lds[0], lds[1]);
    return 0;
}
