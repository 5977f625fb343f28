void f(int restrict a);
