int *f(double d)
{
  return (int *)d;
}
