#include <stdio.h>

static const char *cls(double x) {
    if (x < 0) return "neg";
    else if (x == 0) return "zero";
    else if (x > 100) return "big";
    else if (x != x) return "nan";
    return "pos";
}

static double fmax2(double a, double b) { return a > b ? a : b; }
static float fmin2(float a, float b) { return a < b ? a : b; }

int main(void) {
    double vals[] = { -3.5, 0.0, -0.0, 5.0, 1000.0, 100.0, 100.00000000001 };
    int i, n = 0;
    double z = 0.0;
    for (i = 0; i < 7; i++)
        printf("%g %s\n", vals[i], cls(vals[i]));
    printf("%s\n", cls(z / z));
    printf("%g %g\n", fmax2(1.5, -2), fmin2(3.5f, 3.25f));
    for (i = 0; i < 7; i++)
        if (vals[i] >= 0.0 && vals[i] <= 100.0)
            n++;
    printf("%d\n", n);
    {
        double x = 0.0;
        while (x < 1.0)
            x += 0.125;
        printf("%g\n", x);
    }
    {
        float f = 10.0f;
        int count = 0;
        for (; f > 0.5f; f /= 2) count++;
        printf("%d %g\n", count, f);
    }
    return 0;
}
