void f(void) { 5++; }
