struct p { int x, y; };
struct p ps[1] = { { 1, 2, 3 } };
