#include <stdio.h>

#define N 12

static double A[N][N], B[N][N], C[N][N];
static long IA[N][N], IB[N][N], IC[N][N];

int main(void) {
    int i, j, k;
    double trace = 0;
    long itrace = 0;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            A[i][j] = (i + 1) * 0.5 - j * 0.25;
            B[i][j] = (i == j) + (i + j) % 3 * 0.125;
            IA[i][j] = i * N + j - 50;
            IB[i][j] = (i * 7 + j * 3) % 11 - 5;
        }
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            double s = 0;
            long t = 0;
            for (k = 0; k < N; k++) { s += A[i][k] * B[k][j]; t += IA[i][k] * IB[k][j]; }
            C[i][j] = s;
            IC[i][j] = t;
        }
    for (i = 0; i < N; i++) { trace += C[i][i]; itrace += IC[i][i]; }
    printf("%.6f %ld\n", trace, itrace);
    printf("%.6f %.6f %ld %ld\n", C[0][N - 1], C[N - 1][0], IC[3][4], IC[N - 1][N - 1]);
    return 0;
}
