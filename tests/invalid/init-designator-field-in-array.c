int a[3] = { .x = 1 };
