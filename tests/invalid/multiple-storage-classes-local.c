void f(void)
{
  auto register int x;
}
