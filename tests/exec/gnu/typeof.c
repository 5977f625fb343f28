#include <stdio.h>

int main(void) {
    int i = 5;
    typeof(i) j = 7;
    __typeof__(i * 2.0) d = 1.5;
    typeof(int *) p = &i;
    typeof(char[10]) buf = "typeof";
    long arr[4] = { 1, 2, 3, 4 };
    typeof(arr[0]) e = arr[3] * 1000000000000L;
    __auto_type a = 3.25f;
    __auto_type b = arr;
    printf("%d %g %d %s %ld\n", j, d, *p, buf, e);
    printf("%d %d %d\n", (int)sizeof d, (int)sizeof buf, (int)sizeof(typeof(arr)));
    printf("%g %d %ld\n", a, (int)sizeof a, b[2]);
    {
        typeof(unsigned char) uc = 300;
        printf("%d\n", uc);
    }
    return 0;
}
