#include <stdio.h>

static int h(unsigned x) {
    switch (x % 40) {
    case 0: return 7; case 1: return 3; case 2: return 9; case 3: return 1; case 4: return 8;
    case 5: return 2; case 6: return 6; case 7: return 4; case 8: return 5; case 9: return 0;
    case 10: return 17; case 11: return 13; case 12: return 19; case 13: return 11; case 14: return 18;
    case 15: return 12; case 16: return 16; case 17: return 14; case 18: return 15; case 19: return 10;
    case 20: return 27; case 21: return 23; case 22: return 29; case 24: return 28;
    case 25: return 22; case 27: return 24; case 28: return 25; case 29: return 20;
    case 31: return 33; case 33: return 31; case 35: return 32; case 37: return 34; case 39: return 30;
    }
    return -1;
}

int main(void) {
    unsigned i;
    long s = 0;
    for (i = 0; i < 45; i++) printf("%d%c", h(i), i % 15 == 14 ? '\n' : ' ');
    for (i = 0; i < 1000; i++) s += h(i * 7);
    printf("\n%ld\n", s);
    return 0;
}
