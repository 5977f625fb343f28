enum e { A };
struct e *p;
