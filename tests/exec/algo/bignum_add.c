#include <stdio.h>
#include <string.h>

#define DIGITS 120

static void add(const char *a, const char *b, char *out) {
    int la = (int)strlen(a), lb = (int)strlen(b), carry = 0, k = 0, i;
    char tmp[DIGITS + 2];
    while (la > 0 || lb > 0 || carry) {
        int s = carry;
        if (la > 0) s += a[--la] - '0';
        if (lb > 0) s += b[--lb] - '0';
        tmp[k++] = (char)('0' + s % 10);
        carry = s / 10;
    }
    for (i = 0; i < k; i++) out[i] = tmp[k - 1 - i];
    out[k] = 0;
}

static void mul_small(char *a, int m) {
    int n = (int)strlen(a), carry = 0, i, k = 0;
    char tmp[DIGITS + 2];
    for (i = n - 1; i >= 0; i--) { int p = (a[i] - '0') * m + carry; tmp[k++] = (char)('0' + p % 10); carry = p / 10; }
    while (carry) { tmp[k++] = (char)('0' + carry % 10); carry /= 10; }
    for (i = 0; i < k; i++) a[i] = tmp[k - 1 - i];
    a[k] = 0;
}

int main(void) {
    char a[DIGITS + 2] = "0", b[DIGITS + 2] = "1", c[DIGITS + 2];
    char f[DIGITS + 2] = "1";
    int i;
    for (i = 0; i < 200; i++) { add(a, b, c); strcpy(a, b); strcpy(b, c); }
    printf("fib(201) = %s\n", b);
    for (i = 2; i <= 50; i++) mul_small(f, i);
    printf("50! = %s\n", f);
    add("99999999999999999999", "1", c);
    printf("%s\n", c);
    return 0;
}
