int a[2 - 5];
