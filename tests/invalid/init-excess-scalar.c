int x = { 1, 2 };
