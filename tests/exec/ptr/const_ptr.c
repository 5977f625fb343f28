#include <stdio.h>

static int total(const int *p, int n) { int s = 0; while (n--) s += *p++; return s; }
static const char *skip(const char *s, char c) { while (*s == c) s++; return s; }

int main(void) {
    int data[] = { 4, 8, 15, 16, 23, 42 };
    const int *cp = data;
    int *const pc = data + 1;
    const int ci = 5;
    printf("%d\n", total(data, 6));
    cp++;
    *pc = 9;
    printf("%d %d\n", *cp, data[1]);
    printf("%s\n", skip("   hello", ' '));
    printf("%d\n", ci * 2);
    return 0;
}
