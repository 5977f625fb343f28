void f(void) { (blah)1; }
