void f(void) {
  foo_t x;
}
