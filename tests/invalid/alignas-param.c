void f(_Alignas(8) int a);
