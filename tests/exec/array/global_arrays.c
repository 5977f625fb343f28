#include <stdio.h>

int counts[5];
double samples[3] = { 1.5, 2.5 };
char names[3][8] = { "ann", "bo" };
long big_zero[1000];
static unsigned short table[] = { 1, 1, 2, 3, 5, 8, 13, 21 };

static void bump(int *arr, int n) { while (n--) arr[n] += n; }

int main(void) {
    int i;
    long s = 0;
    bump(counts, 5);
    bump(counts, 5);
    for (i = 0; i < 5; i++) printf("%d ", counts[i]);
    printf("\n%g %g %g\n", samples[0], samples[1], samples[2]);
    printf("%s %s [%s]\n", names[0], names[1], names[2]);
    for (i = 0; i < 1000; i++) s += big_zero[i];
    printf("%ld %d\n", s, (int)(sizeof table / sizeof *table));
    for (i = 2; i < 8; i++) printf("%d", table[i] == table[i - 1] + table[i - 2]);
    printf("\n");
    return 0;
}
