enum e { A } int x;
union u { int a; } long y;
void f(void) { struct s { int a; } int z; }
struct t { struct r { int a; } int w; };
struct q { int a; } const v;
