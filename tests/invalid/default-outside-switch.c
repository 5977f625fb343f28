void f(void) { default: ; }
