void f(int x) {
  switch (x) {
  default: break;
  default: break;
  }
}
