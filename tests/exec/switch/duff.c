#include <stdio.h>

static void copy(char *to, const char *from, int count) {
    int n = (count + 7) / 8;
    if (count == 0) return;
    switch (count % 8) {
    case 0: do { *to++ = *from++;
    case 7:      *to++ = *from++;
    case 6:      *to++ = *from++;
    case 5:      *to++ = *from++;
    case 4:      *to++ = *from++;
    case 3:      *to++ = *from++;
    case 2:      *to++ = *from++;
    case 1:      *to++ = *from++;
            } while (--n > 0);
    }
}

int main(void) {
    const char *src = "abcdefghijklmnopqrstuvwxyz0123456789";
    int len;
    for (len = 0; len <= 20; len += 3) {
        char buf[64] = { 0 };
        copy(buf, src, len);
        printf("%d [%s]\n", len, buf);
    }
    return 0;
}
