void take(char *);
void f(void) { take(65); }
