double f(int *p)
{
  return (double)p;
}
