#include <stdio.h>
#include <string.h>

struct S { int a; double b; char c[10]; };

int main(void) {
    struct S s1 = { 1, 2.5, "abc" }, s2;
    char buf[32];
    int nums[8];
    int i;
    __builtin_memcpy(&s2, &s1, sizeof s1);
    printf("%d %g %s\n", s2.a, s2.b, s2.c);
    __builtin_memset(buf, 'z', 5);
    buf[5] = 0;
    printf("%s %d\n", buf, (int)__builtin_strlen("twelve chars"));
    memset(nums, 0xff, sizeof nums);
    printf("%d\n", nums[3]);
    memset(nums, 0, 4 * sizeof(int));
    for (i = 0; i < 8; i++) printf("%d ", nums[i]);
    printf("\n%d\n", __builtin_memcmp("abc", "abd", 3) < 0);
    memmove(buf + 1, buf, 4);
    printf("%s\n", buf);
    {
        char *p = __builtin_alloca(16);
        strcpy(p, "alloca");
        printf("%s\n", p);
    }
    return 0;
}
