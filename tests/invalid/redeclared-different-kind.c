int v;
void v(void);
