#include <stdio.h>

static unsigned seed = 12345;
static unsigned rnd(void) { seed = seed * 1103515245u + 12345u; return (seed >> 16) & 0x7fff; }

static void insertion(int *a, int n) {
    int i, j;
    for (i = 1; i < n; i++) { int k = a[i]; for (j = i - 1; j >= 0 && a[j] > k; j--) a[j + 1] = a[j]; a[j + 1] = k; }
}
static void quick(int *a, int lo, int hi) {
    int i = lo, j = hi, p = a[(lo + hi) / 2];
    if (lo >= hi) return;
    while (i <= j) {
        while (a[i] < p) i++;
        while (a[j] > p) j--;
        if (i <= j) { int t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
    }
    quick(a, lo, j);
    quick(a, i, hi);
}
static void merge_sort(int *a, int *tmp, int n) {
    int mid = n / 2, i = 0, j = mid, k = 0;
    if (n < 2) return;
    merge_sort(a, tmp, mid);
    merge_sort(a + mid, tmp, n - mid);
    while (i < mid && j < n) tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
    while (i < mid) tmp[k++] = a[i++];
    while (j < n) tmp[k++] = a[j++];
    for (i = 0; i < n; i++) a[i] = tmp[i];
}
static void heapify(int *a, int n, int i) {
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i, t;
        if (l < n && a[l] > a[m]) m = l;
        if (r < n && a[r] > a[m]) m = r;
        if (m == i) return;
        t = a[i]; a[i] = a[m]; a[m] = t; i = m;
    }
}
static void heap_sort(int *a, int n) {
    int i;
    for (i = n / 2 - 1; i >= 0; i--) heapify(a, n, i);
    for (i = n - 1; i > 0; i--) { int t = a[0]; a[0] = a[i]; a[i] = t; heapify(a, i, 0); }
}
static unsigned long checksum(const int *a, int n) { unsigned long h = 0; int i; for (i = 0; i < n; i++) h = h * 31 + (unsigned)a[i]; return h; }
static int sorted(const int *a, int n) { int i; for (i = 1; i < n; i++) if (a[i - 1] > a[i]) return 0; return 1; }

int main(void) {
    enum { N = 500 };
    int a[N], b[N], c[N], d[N], tmp[N], i;
    for (i = 0; i < N; i++) a[i] = b[i] = c[i] = d[i] = (int)rnd() - 16384;
    insertion(a, N);
    quick(b, 0, N - 1);
    merge_sort(c, tmp, N);
    heap_sort(d, N);
    printf("%d %d %d %d\n", sorted(a, N), sorted(b, N), sorted(c, N), sorted(d, N));
    printf("%lu %lu %lu %lu\n", checksum(a, N), checksum(b, N), checksum(c, N), checksum(d, N));
    printf("%d %d %d\n", a[0], a[N / 2], a[N - 1]);
    return 0;
}
