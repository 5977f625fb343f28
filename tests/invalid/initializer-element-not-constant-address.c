int f(void);
int x = (int)&f;
