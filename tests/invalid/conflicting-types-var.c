int x;
long x;
