enum e { A = 0x7fffffffffffffff, B };
