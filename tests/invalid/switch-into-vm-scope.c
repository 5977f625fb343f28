void g(int (*)[2]);

void f(int n)
{
  switch (n)
    {
    case 0:
      {
        int b[n][2];
        g(b);
      case 1:
        g(b);
      }
    default:
      {
        int c[n];
      case 2:
        c[0] = 0;
      }
    }
}
