#include <stdio.h>
#include <string.h>
#include <stdlib.h>

int main(void) {
    char buf[64];
    const char *s = "The quick brown fox";
    char *tok, *copy;
    printf("%d %d %d\n", strcmp("abc", "abd") < 0, strcmp("b", "a") > 0, strcmp("same", "same"));
    printf("%d\n", strncmp("prefix-one", "prefix-two", 7));
    printf("%s\n", strchr(s, 'q'));
    printf("%s\n", strrchr(s, 'o'));
    printf("%s\n", strstr(s, "brown"));
    printf("%d\n", (int)strspn("aaabbc", "ab"));
    printf("%d\n", (int)strcspn("hello world", " "));
    strncpy(buf, s, 9);
    buf[9] = 0;
    printf("[%s]\n", buf);
    copy = malloc(strlen(s) + 1);
    strcpy(copy, s);
    for (tok = strtok(copy, " "); tok; tok = strtok(NULL, " ")) printf("<%s>", tok);
    printf("\n");
    free(copy);
    printf("%ld %ld %g\n", strtol("-12345xyz", NULL, 10), strtol("ff", NULL, 16), strtod("2.5e3", NULL));
    printf("%d %ld\n", atoi("  42"), atol("-9000000000"));
    printf("%lu\n", strtoul("18446744073709551615", NULL, 10));
    return 0;
}
