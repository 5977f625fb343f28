#include <stdio.h>
#include <limits.h>

int main(void) {
    char c = (char)200;
    signed char sc = (signed char)200;
    unsigned char uc = 200;
    char buf[4] = { (char)0x80, (char)0xff, 0x7f, 0 };
    int i;
    /* plain char is signed on x86-64 */
    printf("%d %d %d\n", c, sc, uc);
    printf("%d %d\n", CHAR_MIN, CHAR_MAX);
    for (i = 0; i < 4; i++)
        printf("%d %u %d\n", buf[i], (unsigned char)buf[i], buf[i] < 0);
    printf("%d\n", '\xff');
    printf("%d\n", (unsigned char)'\xff');
    printf("%d\n", "\x80"[0]);
    printf("%d\n", c == (char)200);
    printf("%d\n", c == 200);
    printf("%d\n", uc == 200);
    return 0;
}
