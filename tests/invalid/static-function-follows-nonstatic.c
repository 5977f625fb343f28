void g(void);
static void g(void) {}
