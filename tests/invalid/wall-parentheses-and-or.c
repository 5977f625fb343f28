// options: -Wall
int f(int a, int b, int c) { return a && b || c; }
