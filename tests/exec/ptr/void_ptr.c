#include <stdio.h>
#include <string.h>

static void swap(void *a, void *b, size_t n) {
    unsigned char tmp[64];
    memcpy(tmp, a, n);
    memcpy(a, b, n);
    memcpy(b, tmp, n);
}

int main(void) {
    int i1 = 1, i2 = 2;
    double d1 = 1.5, d2 = -2.5;
    struct { char s[20]; } s1 = { "first" }, s2 = { "second" };
    void *vp = &i1;
    swap(&i1, &i2, sizeof i1);
    swap(&d1, &d2, sizeof d1);
    swap(&s1, &s2, sizeof s1);
    printf("%d %d %g %g %s %s\n", i1, i2, d1, d2, s1.s, s2.s);
    printf("%d\n", *(int *)vp);
    vp = &d1;
    printf("%g\n", *(double *)vp);
    {
        unsigned int word = 0x11223344;
        unsigned char *bytes = (unsigned char *)&word;
        printf("%02x %02x %02x %02x\n", bytes[0], bytes[1], bytes[2], bytes[3]);
    }
    printf("%d\n", (void *)0 == NULL);
    return 0;
}
