#include <stdio.h>
#include <stdarg.h>
#include <string.h>

static char logbuf[256];
static int logged;

static void logf_(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    logged += vsnprintf(logbuf + logged, sizeof logbuf - logged, fmt, ap);
    va_end(ap);
}

static void say(const char *prefix, const char *fmt, ...) {
    va_list ap;
    printf("%s: ", prefix);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

int main(void) {
    logf_("%d-%s-", 12, "ab");
    logf_("%.2f|%c|%ld", 3.14159, 'z', 1234567890123L);
    printf("%s (%d)\n", logbuf, (int)strlen(logbuf));
    say("info", "x=%d y=%g s=%s", 5, 2.5, "str");
    say("many", "%d %d %d %d %d %d %d %d %g %g", 1, 2, 3, 4, 5, 6, 7, 8, 0.5, 1.5);
    {
        char out[64];
        int n = snprintf(out, sizeof out, "%5d|%-5s|%05.1f|%x|%o|%%", 42, "ab", 3.14159, 255, 8);
        printf("%s %d\n", out, n);
    }
    return 0;
}
