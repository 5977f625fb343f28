void f(int n) {
  {
    int a[n];
  in:
    a[0] = 1;
  }
  goto in;
}
void g(int n) {
  goto ok;
  {
  ok:;
    int a[n];
    a[0] = 0;
  }
}
