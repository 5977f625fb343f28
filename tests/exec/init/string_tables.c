#include <stdio.h>

static const char *days[] = { "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun" };
static const char months[][10] = { "January", "February", "March" };
static const char *const *pdays = days;
static const char *nested[2][2] = { { "a", "b" }, { "c", "d" } };

int main(void) {
    int i;
    for (i = 0; i < 7; i++) printf("%s%c", days[i], i == 6 ? '\n' : ' ');
    for (i = 0; i < 3; i++) printf("%s %d\n", months[i], (int)sizeof months[i]);
    printf("%s %c\n", pdays[4], pdays[5][1]);
    printf("%s%s%s%s\n", nested[0][0], nested[0][1], nested[1][0], nested[1][1]);
    printf("%d\n", (int)(sizeof days / sizeof days[0]));
    return 0;
}
