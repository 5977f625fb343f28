#include <stdio.h>

static const char *kind(int c) {
    switch (c) {
    case '0' ... '9': return "digit";
    case 'a' ... 'z': return "lower";
    case 'A' ... 'Z': return "upper";
    case ' ': case '\t': return "space";
    case -100 ... -1: return "negative";
    default: return "other";
    }
}

static int bucket(unsigned long x) {
    switch (x) {
    case 0 ... 9: return 0;
    case 10 ... 99: return 1;
    case 100 ... 999: return 2;
    case 1000 ... 0xffffffffUL: return 3;
    default: return 4;
    }
}

int main(void) {
    const char *s = "aZ5 \t#";
    int i;
    for (i = 0; s[i]; i++) printf("%s ", kind(s[i]));
    printf("%s %s\n", kind(-50), kind(-101));
    printf("%d %d %d %d %d %d\n", bucket(0), bucket(9), bucket(10), bucket(999), bucket(123456), bucket(0x100000000UL));
    return 0;
}
