#include <stdio.h>

int main(void) {
    int i, j, k, count = 0;
    for (i = 0; i < 6; i++) {
        if (i == 4) continue;
        for (j = 0; j < 6; j++) {
            if (j == i) break;
            k = 0;
            while (1) {
                if (++k > j) break;
                if (k == 2) continue;
                count += k;
            }
        }
    }
    printf("%d\n", count);
    {
        int found = 0;
        for (i = 2; i < 50 && !found; i++)
            for (j = 2; j < i; j++)
                if (i * j == 221) { found = i * 100 + j; break; }
        printf("%d\n", found);
    }
    {
        int n = 0;
        do {
            n++;
            switch (n) {
            case 2: continue;
            case 5: break;
            }
            if (n == 7) break;
            printf("n%d ", n);
        } while (n < 10);
        printf("\n");
    }
    return 0;
}
