int u;
static int u;
