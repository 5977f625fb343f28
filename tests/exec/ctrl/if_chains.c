#include <stdio.h>

static const char *grade(int s) {
    if (s >= 90) return "A";
    else if (s >= 80) return "B";
    else if (s >= 70) return "C";
    else if (s >= 60) return "D";
    else return "F";
}

static int classify(int a, int b) {
    int r = 0;
    if (a > 0)
        if (b > 0) r = 1;
        else r = 2;
    else if (b > 0) r = 3;
    else r = 4;
    return r;
}

int main(void) {
    int s;
    for (s = 55; s <= 100; s += 5) printf("%d%s ", s, grade(s));
    printf("\n%d %d %d %d\n", classify(1, 1), classify(1, -1), classify(-1, 1), classify(0, 0));
    {
        int x = 5, y = 0;
        if (x > 3 && y++ == 0) x = 100;
        if (x < 3 && y++ == 0) x = 200;
        if (x > 3 || y++ == 0) x += 1;
        printf("%d %d\n", x, y);
    }
    return 0;
}
