#include <stdio.h>
#include <stdint.h>

static int data[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
static int *past = &data[8];
static int *back = &data[8] - 3;
static char *bytes = (char *)data + 8;
static uintptr_t as_int = (uintptr_t)&data[2];
static struct { int a; int *p; const char *s; } rec = { 5, data + 6, "rec" + 1 };
static int *const cptrs[] = { &data[1], &data[3], 0 };

int main(void) {
    printf("%ld %d %d\n", (long)(past - data), *back, *(int *)bytes);
    printf("%d\n", *(int *)as_int);
    printf("%d %d %s\n", rec.a, *rec.p, rec.s);
    printf("%d %d %d\n", *cptrs[0], *cptrs[1], cptrs[2] == 0);
    return 0;
}
