void f(int a) { --(a + 1); }
