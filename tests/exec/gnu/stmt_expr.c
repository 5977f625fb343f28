#include <stdio.h>

#define MAX(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
#define SQUARE(x) ({ long _t = (x); _t * _t; })

static int counter;
static int next(void) { return ++counter; }

int main(void) {
    int x = ({ int a = 3; int b = 4; a * b; });
    double d = ({ double t = 1.5; t * 2; });
    printf("%d %g\n", x, d);
    printf("%d\n", MAX(next(), 0));
    printf("%d\n", counter);
    printf("%g\n", MAX(2.5, 1));
    printf("%ld\n", SQUARE(100000));
    {
        int i, total = ({ int s = 0; for (i = 0; i < 10; i++) s += i; s; });
        printf("%d\n", total);
    }
    {
        int y = ({ goto skip; 1; });
    skip:
        y = 7;
        printf("%d\n", y);
    }
    {
        struct pair { int a, b; };
        struct pair s = ({ struct pair t = { 1, 2 }; t.b += 5; t; }), *ps = &s;
        printf("%d\n", ps->b);
    }
    return 0;
}
