#include <stdio.h>

enum color { RED, GREEN = 5, BLUE, YELLOW = -3, PURPLE, LAST = GREEN + 10 };
enum big { BIG = 0x7fffffff };
enum flags { F_A = 1 << 0, F_B = 1 << 1, F_C = 1 << 2 };

static const char *name(enum color c) {
    switch (c) {
    case RED: return "red";
    case GREEN: return "green";
    case BLUE: return "blue";
    case YELLOW: return "yellow";
    case PURPLE: return "purple";
    case LAST: return "last";
    }
    return "?";
}

int main(void) {
    enum color c;
    enum flags f = F_A | F_C;
    int vals[] = { RED, GREEN, BLUE, YELLOW, PURPLE, LAST };
    int i;
    for (i = 0; i < 6; i++)
        printf("%d %s\n", vals[i], name((enum color)vals[i]));
    printf("%d %d\n", (int)sizeof(enum color), (int)sizeof(enum big));
    printf("%d\n", BIG);
    printf("%d %d\n", f, (f & F_B) != 0);
    c = BLUE;
    c++;
    printf("%d\n", c);
    printf("%d\n", PURPLE < RED);
    {
        enum { LOCAL_A = 10, LOCAL_B } x = LOCAL_B;
        printf("%d\n", x * 2);
    }
    return 0;
}
