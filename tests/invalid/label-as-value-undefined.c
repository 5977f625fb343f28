void f(void)
{
  void *p = &&missing;
}
