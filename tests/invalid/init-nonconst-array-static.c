int g;
int a[2] = { 1, g };
