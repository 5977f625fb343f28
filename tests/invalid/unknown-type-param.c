int f(size_t n);
