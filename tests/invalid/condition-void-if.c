void g(void);
void f(void) { if (g()) ; }
