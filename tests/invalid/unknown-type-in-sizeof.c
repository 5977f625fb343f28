int f(void) { return sizeof(blah); }
