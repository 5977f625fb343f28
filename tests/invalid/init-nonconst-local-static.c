int f(int a) {
  static int s = a;
  return s;
}
