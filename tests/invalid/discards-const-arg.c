void take(char *);
void f(const char *s) { take(s); }
