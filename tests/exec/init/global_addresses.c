#include <stdio.h>

int g_int = 42;
int g_arr[5] = { 10, 20, 30, 40, 50 };
int *p_int = &g_int;
int *p_mid = &g_arr[2];
int *p_end = g_arr + 5;
int **pp = &p_mid;
char g_str[] = "global";
char *p_str = g_str + 3;
const char *lit = "literal" + 2;
long diff_size = sizeof g_arr;
struct pt { int x, y; } g_pt = { 3, 4 };
int *p_y = &g_pt.y;
struct pt *p_pt = &g_pt;
static double g_d = 1.5;
double *p_d = &g_d;
int (*p_row)[5] = &g_arr;

int main(void) {
    printf("%d %d %ld\n", *p_int, *p_mid, (long)(p_end - g_arr));
    printf("%d\n", **pp);
    printf("%s %s\n", p_str, lit);
    printf("%ld %d %d\n", diff_size, *p_y, p_pt->x);
    printf("%g %d\n", *p_d, (*p_row)[4]);
    g_int = 7;
    printf("%d\n", *p_int);
    return 0;
}
