void f(void)
{
  goto nowhere;
}
