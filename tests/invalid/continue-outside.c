void f(void) { continue; }
