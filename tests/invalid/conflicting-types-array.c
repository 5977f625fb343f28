int a[3];
int a[4];
