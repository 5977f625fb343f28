void f(int x, int y) {
  switch (x) { case y: break; }
}
