#include <stdio.h>

static const char *sparse(long x) {
    switch (x) {
    case -1000000: return "neg-million";
    case -1: return "minus-one";
    case 0: return "zero";
    case 7: return "seven";
    case 100: return "hundred";
    case 1000: return "thousand";
    case 65536: return "64k";
    case 2147483647: return "int-max";
    case 4294967296L: return "2^32";
    case 0x7fffffffffffffffL: return "long-max";
    }
    return "other";
}

int main(void) {
    long vals[] = { -1000000, -1, 0, 7, 8, 100, 999, 1000, 65536, 2147483647, 4294967296L,
                    0x7fffffffffffffffL, -0x7fffffffffffffffL - 1, 6 };
    int i;
    for (i = 0; i < 14; i++) printf("%ld %s\n", vals[i], sparse(vals[i]));
    return 0;
}
