void f(void) { helper(); }
