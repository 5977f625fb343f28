void f(int *p) {
  switch (p) { default: break; }
}
