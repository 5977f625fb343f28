struct s;
struct s a[3];
