const int g = 1;
void f(void) { g = 2; }
