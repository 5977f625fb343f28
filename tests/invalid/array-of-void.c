void a[3];
