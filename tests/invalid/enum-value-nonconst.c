int n;
enum e { A = n };
