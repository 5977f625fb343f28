// options: -Wall
int f(char c) { int a[200] = {0}; return a[c]; }
