long char x;
