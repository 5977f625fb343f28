void f(static int a);
