void f(int x) { (void(void))x; }
