void f(void) {
a:
a:
  ;
}
