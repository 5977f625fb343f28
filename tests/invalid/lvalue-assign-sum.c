void f(int a, int b) { a + b = 1; }
