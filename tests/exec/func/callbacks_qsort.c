#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct person { const char *name; int age; };

static int cmp_int(const void *a, const void *b) { int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }
static int cmp_desc(const void *a, const void *b) { return cmp_int(b, a); }
static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }
static int cmp_person(const void *a, const void *b) {
    const struct person *p = a, *q = b;
    if (p->age != q->age) return p->age - q->age;
    return strcmp(p->name, q->name);
}
static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(void) {
    int nums[] = { 5, -3, 9, 0, 2147483647, -2147483647 - 1, 7, 7 };
    const char *words[] = { "pear", "apple", "fig", "banana", "cherry" };
    struct person people[] = { { "bob", 30 }, { "al", 25 }, { "cy", 30 }, { "di", 20 } };
    double ds[] = { 3.5, -1.25, 0, 100, -0.5 };
    int i, key = 9, *found;
    qsort(nums, 8, sizeof nums[0], cmp_int);
    for (i = 0; i < 8; i++) printf("%d ", nums[i]);
    printf("\n");
    found = bsearch(&key, nums, 8, sizeof nums[0], cmp_int);
    printf("found at %ld\n", (long)(found - nums));
    qsort(nums, 8, sizeof nums[0], cmp_desc);
    for (i = 0; i < 8; i++) printf("%d ", nums[i]);
    printf("\n");
    qsort(words, 5, sizeof words[0], cmp_str);
    for (i = 0; i < 5; i++) printf("%s ", words[i]);
    printf("\n");
    qsort(people, 4, sizeof people[0], cmp_person);
    for (i = 0; i < 4; i++) printf("%s:%d ", people[i].name, people[i].age);
    printf("\n");
    qsort(ds, 5, sizeof ds[0], cmp_double);
    for (i = 0; i < 5; i++) printf("%g ", ds[i]);
    printf("\n");
    return 0;
}
