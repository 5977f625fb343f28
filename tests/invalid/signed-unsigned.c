signed unsigned int x;
