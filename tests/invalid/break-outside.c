void f(void) { break; }
