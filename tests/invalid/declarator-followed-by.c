int a int b;
int c
static int d;
int e[2] {1};
struct s { int m; } x y;
