enum e { A = 1.5 };
