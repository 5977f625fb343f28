#include <stdio.h>

static char exact[3] = "abc";
static char padded[8] = "ab";
static char implicit[] = "implicit";
static const char *ptr = "pointer";
static char two_d[2][4] = { "xy", "zzz" };
static struct { char name[6]; int v; } rec = { "rec", 5 };

int main(void) {
    int i;
    printf("%c%c%c %d\n", exact[0], exact[1], exact[2], (int)sizeof exact);
    for (i = 0; i < 8; i++) printf("%d ", padded[i]);
    printf("\n%s %d %s %d\n", implicit, (int)sizeof implicit, ptr, (int)sizeof ptr);
    printf("%s %s %s %d\n", two_d[0], two_d[1], rec.name, rec.v);
    {
        char local[] = { 'h', 'i', '\0', 'x' };
        char wide[10] = "wide";
        printf("%s %d %d %d\n", local, (int)sizeof local, wide[4], wide[9]);
    }
    return 0;
}
