int f(void) {
  int x = 3;
  return x(2);
}
