void f(int a) { (long)a = 1; }
