char s[3] = "abcd";
