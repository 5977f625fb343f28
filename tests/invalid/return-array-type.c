typedef int A[2];
A f(void);
