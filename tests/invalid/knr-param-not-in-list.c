int f(a) int b; { return b; }
