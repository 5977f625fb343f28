int f(int);
int f(long);
