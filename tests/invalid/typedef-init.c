typedef int T = 1;
