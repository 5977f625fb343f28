#include <stdio.h>

static const char *name(int a, int b) {
    switch (a) {
    case 0:
        switch (b) {
        case 0: return "0-0";
        case 1: return "0-1";
        default: return "0-?";
        }
    case 1:
        switch (b) {
        case 0: break;
        case 1: return "1-1";
        }
        return "1-x";
    default:
        break;
    }
    return "?";
}

int main(void) {
    int a, b;
    for (a = 0; a < 3; a++)
        for (b = 0; b < 3; b++) printf("%s ", name(a, b));
    printf("\n");
    return 0;
}
