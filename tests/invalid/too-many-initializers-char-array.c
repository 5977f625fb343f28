char s[2] = { 'a', 'b', 'c' };
