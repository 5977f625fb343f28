#include <stdio.h>

#define STR(x) #x
#define XSTR(x) STR(x)
#define CAT(a, b) a##b
#define SQUARE(x) ((x) * (x))
#define VERSION 3
#define LOG(fmt, ...) printf("log: " fmt "\n", __VA_ARGS__)
#define COUNT(...) (sizeof((int[]){ __VA_ARGS__ }) / sizeof(int))
#define MAX3(a, b, c) ((a) > (b) ? ((a) > (c) ? (a) : (c)) : ((b) > (c) ? (b) : (c)))

#if VERSION > 2 && defined(VERSION)
#define FEATURE "new"
#else
#define FEATURE "old"
#endif

#ifdef UNDEFINED_THING
#error should not happen
#endif

int main(void) {
    int CAT(my, var) = 12;
    printf("%s %s\n", STR(hello world), XSTR(VERSION));
    printf("%d %d\n", myvar, SQUARE(myvar + 1));
    LOG("%d + %d = %d", 2, 3, 2 + 3);
    printf("%d\n", (int)COUNT(1, 2, 3, 4, 5));
    printf("%d\n", MAX3(3, 9, 4));
    printf("%s\n", FEATURE);
    printf("%d\n", __LINE__);
    printf("%d\n", (int)sizeof(__func__));
    printf("%s\n", __func__);
#undef VERSION
#define VERSION 4
    printf("%d\n", VERSION);
    return 0;
}
