void g(void);
int g;
