void f(void) { static void g(void); }
