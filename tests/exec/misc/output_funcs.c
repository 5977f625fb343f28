#include <stdio.h>

int main(void) {
    int i;
    puts("puts adds a newline");
    fputs("fputs does not\n", stdout);
    for (i = 0; i < 5; i++) putchar('a' + i);
    putchar('\n');
    fprintf(stdout, "%s|%5.2f|%-4d|%+d|%e\n", "fmt", 3.14159, 7, 5, 12345.678);
    printf("%c%c%c\n", 72, 105, 33);
    printf("%10s|%-10s|%.3s\n", "right", "left", "truncate");
    printf("%#x %#o %08.3f %lld\n", 255, 8, -3.5, -1LL);
    fwrite("fwrite\n", 1, 7, stdout);
    return 0;
}
