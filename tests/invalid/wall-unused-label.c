// options: -Wall
void f(void) { lab: ; }
