void f(void) { char c; c = "x"; }
