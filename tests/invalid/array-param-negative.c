void f(int a[-1]);
