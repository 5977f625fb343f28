signed void *p;
