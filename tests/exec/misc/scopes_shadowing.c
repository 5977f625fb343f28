#include <stdio.h>

static int x = 1;

static int get_x(void) { return x; }

int main(void) {
    printf("%d\n", x);
    {
        int x = 2;
        printf("%d %d\n", x, get_x());
        {
            int x = 3;
            x++;
            printf("%d\n", x);
        }
        printf("%d\n", x);
        {
            extern int y_ext;
            printf("%d\n", y_ext);
        }
    }
    {
        int i;
        for (i = 0; i < 2; i++) {
            int i = 100;
            printf("%d ", i);
        }
        printf("%d\n", i);
    }
    {
        typedef int T;
        T a = 5;
        {
            typedef double T;
            T b = 2.5;
            printf("%d %g\n", a, b);
        }
    }
    return 0;
}

int y_ext = 77;
