void f(void) { 3 = 4; }
