static int s;
void f(void) { extern int s; }
int s;
