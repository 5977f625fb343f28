const char *s;
void f(void) { char *p = s; }
