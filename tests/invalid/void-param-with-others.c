void f(int a, void);
