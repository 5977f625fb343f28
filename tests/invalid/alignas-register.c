void f(void) { register _Alignas(8) int r; }
