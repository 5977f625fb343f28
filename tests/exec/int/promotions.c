#include <stdio.h>

int main(void) {
    unsigned char uc = 200;
    signed char sc = -56;
    unsigned short us = 65000;
    short ss = -32000;
    char c = 'A';
    /* operands of narrow types are promoted to int */
    printf("%d\n", uc + uc);
    printf("%d\n", sc * 3);
    printf("%d\n", us + us);
    printf("%d\n", ss * 2);
    printf("%d\n", (int)sizeof(uc + uc));
    printf("%d\n", (int)sizeof(+c));
    printf("%d\n", (int)sizeof(c));
    printf("%d\n", ~uc);
    printf("%d\n", -uc);
    printf("%d\n", uc << 23 >> 20);
    printf("%d\n", (unsigned char)(uc + 100));
    printf("%d\n", (signed char)(uc));
    printf("%d\n", (short)(us));
    printf("%d\n", uc > sc);
    printf("%d\n", us > ss);
    /* unsigned short promotes to int, so this comparison is signed */
    printf("%d\n", (unsigned short)1 > -1);
    printf("%d\n", (unsigned int)1 > -1);
    printf("%d\n", c + 1);
    printf("%d\n", sc / 5);
    printf("%d\n", sc % 5);
    printf("%u\n", (unsigned)sc);
    printf("%d\n", (int)(unsigned char)sc);
    return 0;
}
