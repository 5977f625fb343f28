void f(int n)
{
  int a[3][n] = { 0 };
  static int b[3][n];
  int *p = (int[2][n]){ 0 };
}
