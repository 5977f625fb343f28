void f(int c, int a, int b) { (c ? a : b) = 1; }
