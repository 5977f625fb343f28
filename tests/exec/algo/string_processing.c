#include <stdio.h>
#include <string.h>
#include <ctype.h>

static void reverse(char *s) { size_t i, n = strlen(s); for (i = 0; i < n / 2; i++) { char t = s[i]; s[i] = s[n - 1 - i]; s[n - 1 - i] = t; } }
static int is_palindrome(const char *s) {
    const char *e = s + strlen(s) - 1;
    while (s < e) {
        if (!isalpha((unsigned char)*s)) { s++; continue; }
        if (!isalpha((unsigned char)*e)) { e--; continue; }
        if (tolower((unsigned char)*s) != tolower((unsigned char)*e)) return 0;
        s++; e--;
    }
    return 1;
}
static void caesar(char *s, int k) {
    for (; *s; s++) {
        if (*s >= 'a' && *s <= 'z') *s = (char)('a' + (*s - 'a' + k) % 26);
        else if (*s >= 'A' && *s <= 'Z') *s = (char)('A' + (*s - 'A' + k) % 26);
    }
}
static void count_letters(const char *s, int *counts) { for (; *s; s++) if (isalpha((unsigned char)*s)) counts[tolower((unsigned char)*s) - 'a']++; }

int main(void) {
    char buf[100] = "Hello, World";
    int counts[26] = { 0 }, i;
    reverse(buf);
    printf("%s\n", buf);
    printf("%d %d\n", is_palindrome("A man, a plan, a canal: Panama"), is_palindrome("not one"));
    strcpy(buf, "Attack at Dawn");
    caesar(buf, 3);
    printf("%s\n", buf);
    caesar(buf, 23);
    printf("%s\n", buf);
    count_letters("The quick brown fox jumps over the lazy dog", counts);
    for (i = 0; i < 26; i++) printf("%d", counts[i]);
    printf("\n");
    for (i = 0; buf[i]; i++) buf[i] = (char)toupper((unsigned char)buf[i]);
    printf("%s\n", buf);
    return 0;
}
