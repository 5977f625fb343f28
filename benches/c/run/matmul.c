/* matmul: dense double matrix multiply (i-k-j order) plus an integer matrix power. */
#include <stdio.h>
#include <stdlib.h>

#define N 300

static double A[N][N], B[N][N], C[N][N];
static unsigned IM[64][64], IR[64][64], IT[64][64];

int main(int argc, char **argv) {
    int reps = 25;
    if (argc > 1) reps = reps * atoi(argv[1]) / 100;
    if (reps < 1) reps = 1;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i][j] = (double)((i * 7 + j * 3) % 17) / 8.0 - 1.0;
            B[i][j] = (double)((i * 5 + j * 11) % 13) / 4.0 - 1.5;
        }
    double trace = 0;
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) C[i][j] = 0;
        for (int i = 0; i < N; i++)
            for (int k = 0; k < N; k++) {
                double a = A[i][k];
                for (int j = 0; j < N; j++) C[i][j] += a * B[k][j];
            }
        for (int i = 0; i < N; i++) trace += C[i][(i + r) % N];
        A[r % N][r % N] += 0.5;
    }
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < 64; j++) { IM[i][j] = (unsigned)(i * 64 + j) * 2654435761u; IR[i][j] = i == j; }
    for (int p = 0; p < 8 * reps; p++) {
        for (int i = 0; i < 64; i++)
            for (int j = 0; j < 64; j++) {
                unsigned s = 0;
                for (int k = 0; k < 64; k++) s += IR[i][k] * IM[k][j];
                IT[i][j] = s;
            }
        for (int i = 0; i < 64; i++)
            for (int j = 0; j < 64; j++) IR[i][j] = IT[i][j] + (unsigned)(i ^ j) + (unsigned)p;
    }
    unsigned h = 0;
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < 64; j++) h = h * 31u + IR[i][j];
    printf("matmul %.6f %u\n", trace, h);
    return 0;
}
