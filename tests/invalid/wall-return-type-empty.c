// options: -c -Wall
int f(void) { }
