void f(void);
int main(void) { return f(); }
