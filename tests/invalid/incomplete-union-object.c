union u;
union u v;
int f(void) { return 0; }
