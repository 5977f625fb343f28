void f(int a) { (a * 2) += 1; }
