void f(int n) { static int a[n]; }
