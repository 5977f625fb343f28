#include <stdio.h>

static size_t my_strlen(const char *s) { const char *p = s; while (*p) p++; return (size_t)(p - s); }
static char *my_strcpy(char *d, const char *s) { char *r = d; while ((*d++ = *s++)) ; return r; }
static int my_strcmp(const char *a, const char *b) { while (*a && *a == *b) { a++; b++; } return (unsigned char)*a - (unsigned char)*b; }
static const char *my_strstr(const char *h, const char *n) {
    for (; *h; h++) { const char *a = h, *b = n; while (*b && *a == *b) { a++; b++; } if (!*b) return h; }
    return NULL;
}

int main(void) {
    char buf[32];
    printf("%d\n", (int)my_strlen("sixteen chars..."));
    printf("%s\n", my_strcpy(buf, "copied"));
    printf("%d %d %d\n", my_strcmp("a", "b") < 0, my_strcmp("same", "same"), my_strcmp("\xff", "a") > 0);
    printf("%s\n", my_strstr("find the needle here", "needle"));
    printf("%d\n", my_strstr("abc", "zz") == NULL);
    return 0;
}
