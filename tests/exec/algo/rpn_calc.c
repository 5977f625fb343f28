#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>

static double eval(const char *s) {
    double stack[32];
    int sp = 0;
    while (*s) {
        if (isspace((unsigned char)*s)) { s++; continue; }
        if (isdigit((unsigned char)*s)) { char *end; stack[sp++] = strtod(s, &end); s = end; continue; }
        {
            double b = stack[--sp], a = stack[--sp];
            switch (*s++) {
            case '+': stack[sp++] = a + b; break;
            case '-': stack[sp++] = a - b; break;
            case '*': stack[sp++] = a * b; break;
            case '/': stack[sp++] = a / b; break;
            }
        }
    }
    return stack[0];
}

/* recursive descent for infix */
static const char *p;
static double expr(void);
static double atom(void) {
    double v;
    while (*p == ' ') p++;
    if (*p == '(') { p++; v = expr(); while (*p == ' ') p++; p++; return v; }
    if (*p == '-') { p++; return -atom(); }
    v = strtod(p, (char **)&p);
    return v;
}
static double term(void) {
    double v = atom();
    for (;;) {
        while (*p == ' ') p++;
        if (*p == '*') { p++; v *= atom(); } else if (*p == '/') { p++; v /= atom(); } else return v;
    }
}
static double expr(void) {
    double v = term();
    for (;;) {
        while (*p == ' ') p++;
        if (*p == '+') { p++; v += term(); } else if (*p == '-') { p++; v -= term(); } else return v;
    }
}

int main(void) {
    printf("%g\n", eval("3 4 + 2 *"));
    printf("%g\n", eval("5 1 2 + 4 * + 3 -"));
    printf("%g\n", eval("2.5 0.5 /"));
    p = "1 + 2 * 3"; printf("%g\n", expr());
    p = "(1 + 2) * 3 - -4 / 8"; printf("%g\n", expr());
    p = "((2))*((3+4)*(5-1))/7"; printf("%g\n", expr());
    return 0;
}
