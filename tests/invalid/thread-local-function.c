_Thread_local void f(void);
