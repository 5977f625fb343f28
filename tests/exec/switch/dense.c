#include <stdio.h>

static int dense(int x) {
    switch (x) {
    case 0: return 10;
    case 1: return 11;
    case 2: return 12;
    case 3: return 13;
    case 4: return 14;
    case 5: return 15;
    case 6: return 16;
    case 7: return 17;
    case 8: return 18;
    case 9: return 19;
    case 10: return 20;
    case 11: return 21;
    default: return -1;
    }
}

int main(void) {
    int i;
    for (i = -3; i <= 14; i++) printf("%d ", dense(i));
    printf("\n%d %d\n", dense(2147483647), dense(-2147483647 - 1));
    return 0;
}
