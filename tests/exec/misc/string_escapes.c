#include <stdio.h>
#include <string.h>

int main(void) {
    const char *s = "a\tb\\c\"d\'e\x41\101\0hidden";
    const char *t = "\a\b\f\n\r\v\?";
    const char cat[] = "con" "cat" "enated";
    size_t i;
    printf("%d %s\n", (int)strlen(s), s);
    for (i = 0; i < strlen(t); i++) printf("%d ", t[i]);
    printf("\n%s %d\n", cat, (int)sizeof cat);
    printf("%d %d %d\n", '\'', '"', '\\');
    printf("%d %d\n", "\x7f"[0], "\377"[0]);
    printf("%d\n", (int)sizeof("\0\0\0"));
    printf("[%s]\n", "line1\nline2");
    printf("%d\n", "\1234"[0] == 'S' && "\1234"[1] == '4');
    printf("%c%c%c\n", 0x48, 'i', '\041');
    return 0;
}
