int g(void) {
  int a = b;
  return a;
}
