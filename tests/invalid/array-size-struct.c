struct s { int a; } v;
int a[v];
