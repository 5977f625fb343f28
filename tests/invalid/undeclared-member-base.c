void f(void) { q.a = 1; }
