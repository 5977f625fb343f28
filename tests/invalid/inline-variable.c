inline int x;
