#include <stdio.h>

int main(void) {
    int i;
    long total = 0;
    unsigned long ut = 0;
    for (i = 0; i < 100; i++) {
        double d = i * 1.7 - 50;
        total += (long)d;
        ut += (unsigned long)(d < 0 ? -d : d);
    }
    printf("%ld %lu\n", total, ut);
    {
        float f;
        int n = 0;
        for (f = 0.0f; f < 1.0f; f += 0.1f) n++;
        printf("%d\n", n);
    }
    {
        unsigned char c = (unsigned char)(double)200.9;
        signed char s = (signed char)-100.7f;
        short sh = (short)30000.5;
        printf("%d %d %d\n", c, s, sh);
    }
    return 0;
}
