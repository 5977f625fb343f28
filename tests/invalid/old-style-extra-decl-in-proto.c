int f(int a) int a; { return a; }
