void f(extern int a);
