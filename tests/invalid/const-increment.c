void f(void) { const int c = 1; c++; }
