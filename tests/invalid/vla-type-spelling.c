int g(int);

void f(int n, char c, long k)
{
  char *q;
  int (*p1)[c];
  q = p1;
  int (*p2)[k + 1];
  q = p2;
  int (*p3)[(n + 1) * 2];
  q = p3;
  int (*p4)[n - 1];
  q = p4;
  long (*p5)[3][n / 2];
  q = p5;
  int (*fp)(int) = g;
  q = fp;
  int *(*pa)[2] = 0;
  q = pa;
  int (*(*x)(void))[4] = 0;
  q = x;
}
