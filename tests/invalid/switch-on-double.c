void f(double d) {
  switch (d) { default: break; }
}
