#include <stdio.h>
#include <string.h>

union pun { double d; unsigned long long u; float f[2]; unsigned char b[8]; };

int main(void) {
    union pun p;
    struct { int a; short s; char c; } st;
    unsigned char raw[8];
    p.d = 1.0;
    printf("%016llx\n", p.u);
    p.u = 0x4000000000000000ull;
    printf("%g\n", p.d);
    p.f[0] = 1.0f; p.f[1] = -2.0f;
    printf("%016llx\n", p.u);
    p.b[7] = 0;
    printf("%g\n", (double)p.f[1]);
    st.a = -1; st.s = 2; st.c = 3;
    memcpy(raw, &st, 7);
    printf("%02x %02x %02x %02x %02x %02x %02x\n", raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6]);
    {
        long x = 0;
        char *cp = (char *)&x;
        cp[2] = 1;
        printf("%ld\n", x);
    }
    return 0;
}
