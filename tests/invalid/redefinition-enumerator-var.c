int A;
enum e { A };
