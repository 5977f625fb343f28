typedef int T;
int T;
