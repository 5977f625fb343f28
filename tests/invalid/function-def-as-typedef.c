typedef int F(void);
F g { return 0; }
