/* Functions with VLAs or alloca called in a loop: their stack is released at each
   return (they are not inlined into the loop), so a long loop does not overflow it. */
#include <alloca.h>
#include <stdio.h>
#include <string.h>

static int vla_sum(int n) {
    int a[n];
    for (int i = 0; i < n; i++) a[i] = i;
    int s = 0;
    for (int i = 0; i < n; i++) s += a[i];
    return s;
}

static int alloca_len(const char *s) {
    char *copy = alloca(strlen(s) + 1);
    strcpy(copy, s);
    return (int)strlen(copy);
}

int main(void) {
    long t = 0;
    for (int i = 0; i < 20000; i++)
        t += vla_sum(1000 + i % 7) + alloca_len("some text to copy");
    printf("%ld\n", t);
    return 0;
}
