int f(void);
long f(void);
