void f(int n) { (int[n]){ 1 }; }
