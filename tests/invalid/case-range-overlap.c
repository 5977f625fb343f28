void f(int x) {
  switch (x) {
  case 1 ... 5: break;
  case 3: break;
  }
}
