#include <stdio.h>

int main(void) {
    const char *prog = "++>+<-[x]..!";
    int regs[2] = { 0, 0 }, r = 0, i, out = 0;
    for (i = 0; prog[i]; i++) {
        switch (prog[i]) {
        case '+': regs[r]++; continue;
        case '-': regs[r]--; continue;
        case '>': r = 1; break;
        case '<': r = 0; break;
        case '.': out += regs[0] * 10 + regs[1]; break;
        case '!': goto end;
        default: continue;
        }
        printf("step %d r=%d\n", i, r);
    }
end:
    printf("%d %d %d\n", regs[0], regs[1], out);
    return 0;
}
