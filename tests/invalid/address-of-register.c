int *f(void)
{
  register int r = 0;
  return &r;
}
