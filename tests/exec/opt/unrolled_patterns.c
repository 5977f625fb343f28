#include <stdio.h>

int main(void) {
    unsigned char bytes[37];
    unsigned sum = 0, x = 0;
    int i, n = 37;
    for (i = 0; i < n; i++) bytes[i] = (unsigned char)(i * 37 + 11);
    for (i = 0; i < n; i++) sum += bytes[i];
    for (i = n - 1; i >= 0; i--) x = x * 31 + bytes[i];
    printf("%u %u\n", sum, x);
    {
        int a[16], b[16], c[16];
        for (i = 0; i < 16; i++) { a[i] = i; b[i] = 16 - i; }
        for (i = 0; i < 16; i++) c[i] = a[i] * b[i] - (a[i] ^ b[i]);
        for (i = 0; i < 16; i++) printf("%d ", c[i]);
        printf("\n");
    }
    {
        double v[9], dot = 0;
        for (i = 0; i < 9; i++) v[i] = i * 0.5;
        for (i = 0; i < 9; i++) dot += v[i] * v[8 - i];
        printf("%g\n", dot);
    }
    return 0;
}
