void f(int *p) { (int[2])p; }
