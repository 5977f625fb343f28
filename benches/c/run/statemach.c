/* statemach: a switch-heavy lexer state machine over generated text -- classifies
   identifiers, numbers, strings, comments and operators, and counts tokens by kind. */
#include <stdio.h>
#include <stdlib.h>

enum state { S_START, S_IDENT, S_NUM, S_HEX, S_STR, S_ESC, S_SLASH, S_LINECOM, S_BLOCKCOM, S_STAR, S_OP };
enum kind { K_IDENT, K_NUM, K_STR, K_COM, K_OP, K_NL, K_COUNT };

static const char alphabet[] = "abcxyz_0123456789 \t\n\"\\/*+-=<>();{}x";

int main(int argc, char **argv) {
    long n = 30000000L;
    if (argc > 1) n = n * atol(argv[1]) / 100;
    char *text = malloc((size_t)n + 1);
    unsigned s = 1;
    for (long i = 0; i < n; i++) {
        s ^= s << 13; s ^= s >> 17; s ^= s << 5;
        text[i] = alphabet[s % (sizeof alphabet - 1)];
    }
    text[n] = 0;
    unsigned long counts[K_COUNT] = {0};
    unsigned long hash = 0, cur = 0;
    enum state st = S_START;
    for (long i = 0; i <= n; i++) {
        int c = (unsigned char)text[i];
        switch (st) {
        case S_START:
        start:
            switch (c) {
            case 'a': case 'b': case 'c': case 'x': case 'y': case 'z': case '_':
                st = S_IDENT; cur = (unsigned long)c; break;
            case '0':
                st = S_NUM; cur = 0; break;
            case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
                st = S_NUM; cur = (unsigned long)(c - '0'); break;
            case '"': st = S_STR; cur = 0; break;
            case '/': st = S_SLASH; break;
            case '\n': counts[K_NL]++; break;
            case ' ': case '\t': case 0: break;
            case '+': case '-': case '=': case '<': case '>':
                st = S_OP; cur = (unsigned long)c; break;
            default: counts[K_OP]++; hash = hash * 7 + (unsigned long)c; break;
            }
            break;
        case S_IDENT:
            if ((c >= 'a' && c <= 'z') || c == '_' || (c >= '0' && c <= '9')) { cur = cur * 31 + (unsigned long)c; break; }
            counts[K_IDENT]++; hash = hash * 31 + cur; st = S_START; goto start;
        case S_NUM:
            if (c == 'x' && cur == 0) { st = S_HEX; break; }
            if (c >= '0' && c <= '9') { cur = cur * 10 + (unsigned long)(c - '0'); break; }
            counts[K_NUM]++; hash = hash * 17 + cur; st = S_START; goto start;
        case S_HEX:
            if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'c')) { cur = cur * 16 + (unsigned long)c; break; }
            counts[K_NUM]++; hash = hash * 19 + cur; st = S_START; goto start;
        case S_STR:
            if (c == '\\') { st = S_ESC; break; }
            if (c == '"' || c == '\n' || c == 0) { counts[K_STR]++; hash = hash * 13 + cur; st = S_START; break; }
            cur = cur * 3 + (unsigned long)c; break;
        case S_ESC: cur += (unsigned long)c; st = c ? S_STR : S_START; break;
        case S_SLASH:
            if (c == '/') { st = S_LINECOM; break; }
            if (c == '*') { st = S_BLOCKCOM; break; }
            counts[K_OP]++; st = S_START; goto start;
        case S_LINECOM:
            if (c == '\n' || c == 0) { counts[K_COM]++; st = S_START; goto start; }
            break;
        case S_BLOCKCOM: if (c == '*') st = S_STAR; else if (c == 0) st = S_START; break;
        case S_STAR:
            if (c == '/') { counts[K_COM]++; st = S_START; }
            else if (c != '*') st = c ? S_BLOCKCOM : S_START;
            break;
        case S_OP:
            if (c == '=' || ((unsigned long)c == cur && c != '=')) { counts[K_OP]++; hash = hash * 5 + cur * 2 + 1; st = S_START; break; }
            counts[K_OP]++; hash = hash * 5 + cur; st = S_START; goto start;
        }
    }
    printf("statemach");
    for (int k = 0; k < K_COUNT; k++) printf(" %lu", counts[k]);
    printf(" %lu\n", hash);
    free(text);
    return 0;
}
