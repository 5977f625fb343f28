#include <stdio.h>

struct pixel { unsigned r : 5, g : 6, b : 5; };

int main(void) {
    struct pixel img[8];
    unsigned sum = 0;
    int i;
    for (i = 0; i < 8; i++) { img[i].r = i * 4; img[i].g = i * 9; img[i].b = 31 - i; }
    for (i = 0; i < 8; i++) {
        printf("%u %u %u\n", img[i].r, img[i].g, img[i].b);
        sum += img[i].r + img[i].g + img[i].b;
    }
    printf("%u %d\n", sum, (int)sizeof img);
    return 0;
}
