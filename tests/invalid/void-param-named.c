void f(void x);
