enum e { A, B };
int f(void) { return C; }
