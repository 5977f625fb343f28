void f(int x) {
  switch (x) {
  case 2: break;
  case 1 + 1: break;
  }
}
