struct s { int a; } arr[2];
int f(void) { return arr.a; }
