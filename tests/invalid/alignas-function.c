_Alignas(8) void f(void);
