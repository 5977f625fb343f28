void nothing(void);
void take(int);
void f(void) { take(nothing()); }
