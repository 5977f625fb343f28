void f(int x) {
  switch (x) {
  case 1: break;
  case 1: break;
  }
}
