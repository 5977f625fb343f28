union u { int a; float f; } v;
int f(void) { return v.c; }
