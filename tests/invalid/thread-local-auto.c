void f(void) { _Thread_local int t; }
