/* sieve: sieve of Eratosthenes over a byte array, repeated; counts primes and sums them. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int reps = 15;
    if (argc > 1) reps = reps * atoi(argv[1]) / 100;
    if (reps < 1) reps = 1;
    const int n = 4000000;
    unsigned char *comp = malloc(n + 1);
    unsigned long total = 0;
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i <= n; i++) comp[i] = 0;
        int lim = n - r * 1000;
        unsigned long count = 0, sum = 0;
        for (int i = 2; (long)i * i <= lim; i++)
            if (!comp[i])
                for (int j = i * i; j <= lim; j += i) comp[j] = 1;
        for (int i = 2; i <= lim; i++)
            if (!comp[i]) { count++; sum += (unsigned long)i; }
        total = total * 31u + count * 7u + sum;
    }
    printf("sieve %lu\n", total);
    free(comp);
    return 0;
}
