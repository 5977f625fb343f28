// options: -fmax-errors=2
void f(void) { a; b; c; d; }
