int x = y;
