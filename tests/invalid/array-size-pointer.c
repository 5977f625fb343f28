int *p;
int a[p];
