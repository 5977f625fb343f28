/* sort: hand-written quicksort and merge sort on ints, plus qsort with a comparator. */
#include <stdio.h>
#include <stdlib.h>

static void quick(int *a, int lo, int hi) {
    while (hi - lo > 16) {
        int p = a[lo + (hi - lo) / 2], i = lo, j = hi;
        while (i <= j) {
            while (a[i] < p) i++;
            while (a[j] > p) j--;
            if (i <= j) { int t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
        }
        if (j - lo < hi - i) { quick(a, lo, j); lo = i; }
        else { quick(a, i, hi); hi = j; }
    }
    for (int i = lo + 1; i <= hi; i++) {
        int v = a[i], j = i - 1;
        while (j >= lo && a[j] > v) { a[j + 1] = a[j]; j--; }
        a[j + 1] = v;
    }
}

static void merge_sort(int *a, int *tmp, int n) {
    for (int w = 1; w < n; w *= 2) {
        for (int lo = 0; lo < n; lo += 2 * w) {
            int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi) tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
            while (i < mid) tmp[k++] = a[i++];
            while (j < hi) tmp[k++] = a[j++];
        }
        for (int i = 0; i < n; i++) a[i] = tmp[i];
    }
}

static int cmp(const void *x, const void *y) {
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

static unsigned check(const int *a, int n) {
    unsigned h = 0;
    for (int i = 0; i < n; i++) h = h * 1000003u + (unsigned)a[i];
    for (int i = 1; i < n; i++) if (a[i - 1] > a[i]) return 0;
    return h;
}

int main(int argc, char **argv) {
    int reps = 4;
    if (argc > 1) reps = reps * atoi(argv[1]) / 100;
    if (reps < 1) reps = 1;
    const int n = 1000000;
    int *a = malloc(sizeof(int) * n), *tmp = malloc(sizeof(int) * n);
    unsigned seed = 7, h = 0;
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < n; i++) { seed = seed * 1103515245u + 12345u; a[i] = (int)(seed >> 1) % 1000000 - 500000; }
        switch (r % 3) {
        case 0: quick(a, 0, n - 1); break;
        case 1: merge_sort(a, tmp, n); break;
        default: qsort(a, (size_t)n, sizeof(int), cmp); break;
        }
        h = h * 31u + check(a, n);
    }
    printf("sort %u\n", h);
    free(a); free(tmp);
    return 0;
}
