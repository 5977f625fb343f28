int T;
typedef int T;
