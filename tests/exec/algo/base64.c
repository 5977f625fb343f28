#include <stdio.h>
#include <string.h>

static const char tbl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void encode(const unsigned char *in, size_t n, char *out) {
    size_t i;
    for (i = 0; i + 2 < n; i += 3) {
        unsigned v = in[i] << 16 | in[i + 1] << 8 | in[i + 2];
        *out++ = tbl[v >> 18]; *out++ = tbl[v >> 12 & 63]; *out++ = tbl[v >> 6 & 63]; *out++ = tbl[v & 63];
    }
    if (n - i == 1) { unsigned v = in[i] << 16; *out++ = tbl[v >> 18]; *out++ = tbl[v >> 12 & 63]; *out++ = '='; *out++ = '='; }
    else if (n - i == 2) { unsigned v = in[i] << 16 | in[i + 1] << 8; *out++ = tbl[v >> 18]; *out++ = tbl[v >> 12 & 63]; *out++ = tbl[v >> 6 & 63]; *out++ = '='; }
    *out = 0;
}

static size_t decode(const char *in, unsigned char *out) {
    size_t n = 0;
    unsigned v = 0;
    int bits = 0;
    for (; *in && *in != '='; in++) {
        v = v << 6 | (unsigned)(strchr(tbl, *in) - tbl);
        bits += 6;
        if (bits >= 8) { bits -= 8; out[n++] = (unsigned char)(v >> bits); }
    }
    return n;
}

int main(void) {
    const char *tests[] = { "", "f", "fo", "foo", "foob", "fooba", "foobar", "\xff\xfe\x00" };
    char enc[64];
    unsigned char dec[64];
    int i;
    for (i = 0; i < 8; i++) {
        size_t n = i == 7 ? 3 : strlen(tests[i]);
        size_t m;
        encode((const unsigned char *)tests[i], n, enc);
        m = decode(enc, dec);
        printf("[%s] %d %d\n", enc, (int)m, memcmp(dec, tests[i], n) == 0);
    }
    return 0;
}
