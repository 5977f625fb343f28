int n;
int (*p)[n];
