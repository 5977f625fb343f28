void f(...);
