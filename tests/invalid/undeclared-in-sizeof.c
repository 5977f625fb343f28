int f(void) { return sizeof(nothing); }
