typedef static int T;
