#include <stdio.h>

int main(void) {
    int x, hits = 0;
    for (x = -2; x < 3; x++) {
        switch (x) {
        case 100: hits += 100;
        }
        switch (x) { }
        switch (x) default: hits++;
        switch (x) {
            hits += 1000; /* unreachable */
        case 1: hits += 10;
        }
    }
    printf("%d\n", hits);
    {
        int y = 3;
        switch (y) {
            int z;
        case 3:
            z = 4;
            printf("%d\n", z * y);
        }
    }
    return 0;
}
