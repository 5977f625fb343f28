int x = { { 1 } };
