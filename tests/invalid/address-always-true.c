// options: -Wall
void g(void);
int f(void) { if (g) return 1; return 0; }
