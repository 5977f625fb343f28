extern int a[];
int f(void) { return sizeof a; }
