int f(void)(void);
