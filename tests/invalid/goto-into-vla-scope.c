void f(int n) {
  goto in;
  {
    int a[n];
in:
    a[0] = 1;
  }
}
