#include <stdio.h>
#include <string.h>

int main(void) {
    char buf[32];
    char a[] = "abc";
    char b[5] = "abcde";  /* no terminator: exactly fits */
    const char *p = "literal";
    int i;
    printf("%d %d\n", (int)sizeof a, (int)strlen(a));
    for (i = 0; i < 5; i++) putchar(b[i]);
    putchar('\n');
    strcpy(buf, p);
    strcat(buf, "-");
    strcat(buf, a);
    printf("%s %d\n", buf, (int)strlen(buf));
    buf[3] = 0;
    printf("%s\n", buf);
    a[0] = 'X';
    printf("%s\n", a);
    printf("%c%c\n", "xyz"[1], *("xyz" + 2));
    printf("%d\n", (int)sizeof("hello"));
    return 0;
}
