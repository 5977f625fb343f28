// options: -Wall
int a[2][2] = { 1, 2, 3, 4 };
