#include <stdio.h>

static void rev(int a[], int n) {
    int i;
    for (i = 0; i < n / 2; i++) { int t = a[i]; a[i] = a[n - 1 - i]; a[n - 1 - i] = t; }
}
static int size_of_param(int a[10]) { return (int)sizeof a; }
static int max_of(const int *a, int n) { int m = a[0]; while (--n > 0) if (a[n] > m) m = a[n]; return m; }

int main(void) {
    int a[7] = { 3, 1, 4, 1, 5, 9, 2 };
    int i;
    rev(a, 7);
    for (i = 0; i < 7; i++) printf("%d ", a[i]);
    printf("\n%d %d %d\n", size_of_param(a), (int)sizeof a, max_of(a, 7));
    rev(a + 2, 3);
    for (i = 0; i < 7; i++) printf("%d ", a[i]);
    printf("\n");
    return 0;
}
