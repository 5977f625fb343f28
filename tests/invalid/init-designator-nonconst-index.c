int n;
int a[3] = { [n] = 1 };
