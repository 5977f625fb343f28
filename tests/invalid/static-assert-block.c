void f(void) { _Static_assert(1 == 2, "one"); }
