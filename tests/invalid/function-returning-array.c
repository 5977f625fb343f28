int f(void)[3];
