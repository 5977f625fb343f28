int *p;
char *p;
