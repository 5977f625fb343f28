enum e { A };
enum e { B };
