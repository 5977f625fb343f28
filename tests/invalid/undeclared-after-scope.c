int f(void) {
  { int inner = 1; }
  return inner;
}
