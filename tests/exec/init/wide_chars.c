#include <stdio.h>
#include <stddef.h>

int main(void) {
    wchar_t w[] = L"wide";
    const wchar_t *p = L"ABC";
    int i;
    printf("%d %d\n", (int)sizeof(wchar_t), (int)sizeof w);
    for (i = 0; w[i]; i++) printf("%d ", (int)w[i]);
    printf("\n%d %d\n", (int)p[2], (int)L'Z');
    {
        char u8[] = u8"caf\u00e9";
        printf("%d", (int)sizeof u8);
        for (i = 0; u8[i]; i++) printf(" %02x", (unsigned char)u8[i]);
        printf("\n");
    }
    return 0;
}
